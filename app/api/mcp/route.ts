import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createGatewayServer } from "@/lib/gateway/gateway-server";
import { refuseForeignHost } from "@/lib/gateway/host-check";
import { apiKeyRequestContext } from "@/lib/http/api-key-context";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

/**
 * The MCP gateway over Streamable HTTP, stateless: each POST gets a fresh server and transport scoped to the
 * API key's organization, so any instance can answer any request.
 */
export const POST = apiRoute("POST /api/mcp", async (request) => {
  const refused = refuseForeignHost(request.headers, getEnv().MCP_ALLOWED_HOSTS);
  if (refused) return jsonRpcError(403, -32000, refused);
  let ctx: ApiKeyContext;
  try {
    ctx = await apiKeyRequestContext(request);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const headers: Record<string, string> = { ...error.details?.headers };
    if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="switchboard"';
    return jsonRpcError(error.status, -32001, error.message, headers);
  }
  const server = createGatewayServer(getDb(), ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // With JSON responses the answer is complete here, so the per-request server can go.
    void server.close();
  }
});

const notAllowed = () =>
  jsonRpcError(405, -32000, "This MCP endpoint is stateless: send requests with POST.", { Allow: "POST" });

export const GET = notAllowed;
export const DELETE = notAllowed;
