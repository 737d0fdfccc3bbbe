import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readGatewayMessages } from "@/lib/gateway/gateway-body";
import { createGatewayServer, serializedGatewayToolList } from "@/lib/gateway/gateway-server";
import { refuseForeignHost } from "@/lib/gateway/host-check";
import { jsonRpcError } from "@/lib/gateway/json-rpc-error";
import { loneToolsListId, toolsListAnswer } from "@/lib/gateway/tools-list-answer";
import { apiKeyRequestContext, chargeApiKey } from "@/lib/http/api-key-context";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { serveFromNode } from "@/lib/http/serve-from-node";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/** An auth or rate-limit refusal as a JSON-RPC error with its HTTP status (and Retry-After or WWW-Authenticate). */
function refusal(error: unknown, note = ""): Response {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const headers: Record<string, string> = { ...error.details?.headers };
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="switchboard"';
  return jsonRpcError(error.status, -32001, `${error.message}${note}`, headers);
}

/**
 * The MCP gateway over Streamable HTTP, stateless: each POST gets a fresh server and transport scoped to the
 * API key's organization (a lone tools/list, only the key's listing serialized once), so any instance can answer
 * any request.
 */
export const POST = uncompressedApiRoute("POST /api/mcp", async (request) => {
  const refused = refuseForeignHost(request.headers, getEnv().MCP_ALLOWED_HOSTS);
  if (refused) return jsonRpcError(403, -32000, refused);
  let ctx: ApiKeyContext;
  try {
    ctx = await apiKeyRequestContext(request);
  } catch (error) {
    return refusal(error);
  }
  // The body is read here (bounded in size and depth, without NUL) so that a batch is counted before it runs.
  const read = await readGatewayMessages(request);
  if (read instanceof Response) return read;
  // The gateway still negotiates 2025-03-26, whose clients may send batches, so a batch is served, not refused:
  // each of its messages counts as one request (the first was counted above), and none runs past the limit.
  if (read.messages > 1) {
    try {
      await chargeApiKey(ctx, read.messages - 1);
    } catch (error) {
      return refusal(error, " Each message of a JSON-RPC batch counts as one request.");
    }
  }
  // A lone tools/list (a large organization's, thousands of tools) is answered from its listing serialized once,
  // as the SDK server would answer it; when the listing fails, the SDK server answers with its error.
  const listId = loneToolsListId(request.headers, read.parsedBody);
  if (listId !== undefined) {
    const serialized = await serializedGatewayToolList(getDb(), ctx).catch(() => undefined);
    if (serialized) return toolsListAnswer(listId, serialized);
  }
  const server = createGatewayServer(getDb(), ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  // A client that hangs up cancels its calls: closing the server aborts every handler's signal. The transport
  // then never answers, so the hang-up ends the request itself (with nginx's "client closed request").
  let hangUp = () => {};
  const hungUp = new Promise<Response>((resolve) => {
    hangUp = () => {
      void server.close();
      resolve(new Response(null, { status: 499 }));
    };
  });
  request.signal.addEventListener("abort", hangUp, { once: true });
  try {
    return await Promise.race([
      transport.handleRequest(
        request,
        read.parsedBody === undefined ? undefined : { parsedBody: read.parsedBody },
      ),
      hungUp,
    ]);
  } finally {
    request.signal.removeEventListener("abort", hangUp);
    // With JSON responses the answer is complete here, so the per-request server can go.
    void server.close();
  }
});

const notAllowed = () =>
  jsonRpcError(405, -32000, "This MCP endpoint is stateless: send requests with POST.", { Allow: "POST" });

export const GET = notAllowed;
export const DELETE = notAllowed;

// Under `npm start`, later POSTs skip Next.js's router (see serveFromNode).
serveFromNode("POST", "/api/mcp", POST);
