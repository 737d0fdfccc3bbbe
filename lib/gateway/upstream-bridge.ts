// The one place the gateway (on the SDK's v2 server packages) meets the client of upstream servers, whose errors
// come in @modelcontextprotocol/sdk 1.x's terms whichever revision the server speaks (the v2 client's are handed
// over as the 1.x client's, lib/mcp/client/modern-client.ts): what that client hands over is read here in the
// server's terms.
import { ErrorCode, McpError as UpstreamMcpError } from "@modelcontextprotocol/sdk/types.js";

// Errors of the client itself rather than answers of the server: told as what went wrong reaching it.
const CLIENT_SIDE = new Set<number>([ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed]);

/** The JSON-RPC error an upstream server answered, as it sent it, when that is what the failure was. */
export function upstreamJsonRpcError(
  error: unknown,
): { code: number; message: string; data?: unknown } | undefined {
  let cause: unknown = error;
  // The integration's use cases wrap the client's error (as the cause) in one that names the integration.
  for (let depth = 0; depth < 3 && cause instanceof Error; depth++) {
    if (cause instanceof UpstreamMcpError) {
      if (CLIENT_SIDE.has(cause.code)) return undefined;
      // The 1.x client prefixes the server's message with "MCP error <code>: ".
      const prefix = `MCP error ${cause.code}: `;
      const message = cause.message.startsWith(prefix) ? cause.message.slice(prefix.length) : cause.message;
      return { code: cause.code, message, ...(cause.data !== undefined ? { data: cause.data } : {}) };
    }
    cause = cause.cause;
  }
  return undefined;
}

/**
 * An answer the client gave to an upstream server's question (elicitation, sampling), checked with the server
 * package's schemas, handed to the 1.x client as its own type: the same message in both.
 */
export function asUpstreamAnswer<T>(answer: object): T {
  return answer as T;
}
