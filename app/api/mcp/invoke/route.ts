import { requireApiCaller } from "@/lib/http/api-context";
import { uncompressedApiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { serveFromNode, withAuthorizationHeader } from "@/lib/http/serve-from-node";
import { invokeTool } from "@/lib/tools/catalog";
import { parseInput } from "@/lib/validation";
import { invokeRequestSchema } from "./schema";

export const dynamic = "force-dynamic";

/** Invokes one tool with params (seed 002, requirement 2): its result as JSON, or a clear error. */
export const POST = uncompressedApiRoute("POST /api/mcp/invoke", async (request, { db }) => {
  const ctx = await requireApiCaller(request);
  const { tool_name, params } = parseInput(invokeRequestSchema, await readJsonBody(request));
  const result = await invokeTool(db, ctx, tool_name, params, {
    surface: "rest",
    scope: ctx.toolScope,
    // A client that hangs up stops the capability runs it started.
    signal: request.signal,
  });
  if (result.isError) {
    return Response.json(
      {
        error: "Tool execution failed",
        tool_name,
        details: result.errorMessage ?? "The tool reported an error.",
        // The server's own MCP error, as it sent it (a client may act on its code and data).
        ...(result.upstreamError ? { upstream_error: result.upstreamError } : {}),
      },
      { status: 500 },
    );
  }
  return Response.json(result.structuredContent ?? { content: result.content });
});

// Under `npm start`, later calls with an API key skip Next.js's router (see serveFromNode).
serveFromNode("POST", "/api/mcp/invoke", POST, { when: withAuthorizationHeader });

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
