import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { apiKeyRequestContext, chargeApiKey } from "@/lib/http/api-key-context";
import { readGatewayMessages } from "./gateway-body";
import { refuseForeignHost } from "./host-check";
import { jsonRpcError } from "./json-rpc-error";

/** An auth or rate-limit refusal as a JSON-RPC error with its HTTP status (and Retry-After or WWW-Authenticate). */
function refusal(error: unknown, note = ""): Response {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const headers: Record<string, string> = { ...error.details?.headers };
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="switchboard"';
  return jsonRpcError(error.status, -32001, `${error.message}${note}`, headers);
}

/**
 * One POST to a stateless MCP endpoint behind an API key, over Streamable HTTP with JSON answers: the Host
 * check, the key and its rate limit (each message of a batch counts), the body read and checked, then the
 * server `open` makes for the key (or the answer it gives itself) handles the messages. The server lives for
 * this request only, so any instance can answer any request.
 */
export async function serveMcpPost(
  request: Request,
  open: (ctx: ApiKeyContext, parsedBody: unknown) => Promise<Server | Response>,
): Promise<Response> {
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
  // Clients of 2025-03-26 may send batches, so a batch is served, not refused: each of its messages counts as
  // one request (the first was counted above), and none runs past the limit.
  if (read.messages > 1) {
    try {
      await chargeApiKey(ctx, read.messages - 1);
    } catch (error) {
      return refusal(error, " Each message of a JSON-RPC batch counts as one request.");
    }
  }
  const server = await open(ctx, read.parsedBody);
  if (server instanceof Response) return server;
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
}

/** What a stateless endpoint answers to GET and DELETE. */
export const statelessOnly = () =>
  jsonRpcError(405, -32000, "This MCP endpoint is stateless: send requests with POST.", { Allow: "POST" });
