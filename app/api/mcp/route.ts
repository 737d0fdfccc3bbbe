import { getEnv } from "@/lib/env";
import {
  createGatewayServer,
  gatewayToolCall,
  serializedGatewayToolList,
} from "@/lib/gateway/gateway-server";
import { serveMcpDelete, serveMcpGet, serveMcpPost } from "@/lib/gateway/serve-mcp";
import { loneToolsCall, toolsCallAnswer } from "@/lib/gateway/tools-call-answer";
import { loneToolsListId, toolsListAnswer } from "@/lib/gateway/tools-list-answer";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { serveFromNode } from "@/lib/http/serve-from-node";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

const ENDPOINT = "gateway";

/**
 * The MCP gateway over Streamable HTTP: each POST gets a fresh server scoped to the API key's organization (a
 * lone tools/list, only the key's listing serialized once; a lone tools/call, only the call), and a session, if the client keeps one, lives in the
 * database, so any instance answers any request.
 */
export const POST = uncompressedApiRoute("POST /api/mcp", (request, { db }) =>
  serveMcpPost(db, request, ENDPOINT, async (ctx, parsedBody, session) => {
    // A lone tools/list (a large organization's, thousands of tools) is answered from its listing serialized
    // once, as the SDK server would answer it; when the listing fails, the SDK server answers with its error.
    // Paged listings go through the SDK server, which pages.
    const listId = getEnv().MCP_LIST_PAGE_SIZE ? undefined : loneToolsListId(request.headers, parsedBody);
    if (listId !== undefined) {
      const serialized = await serializedGatewayToolList(db, ctx).catch(() => undefined);
      if (serialized) return toolsListAnswer(listId, serialized);
    }
    // A lone tools/call without a session (most calls) is answered as the SDK server would, without building one;
    // a client that hangs up cancels it.
    const call = session ? undefined : loneToolsCall(request.headers, parsedBody);
    if (call)
      return toolsCallAnswer(call.id, () =>
        gatewayToolCall(db, ctx, call.params, { signal: request.signal }),
      );
    return createGatewayServer(db, ctx, session);
  }),
);

export const GET = uncompressedApiRoute("GET /api/mcp", (request, { db }) =>
  serveMcpGet(db, request, ENDPOINT),
);
export const DELETE = uncompressedApiRoute("DELETE /api/mcp", (request, { db }) =>
  serveMcpDelete(db, request, ENDPOINT),
);

// Under `npm start`, later POSTs skip Next.js's router (see serveFromNode).
serveFromNode("POST", "/api/mcp", POST);
