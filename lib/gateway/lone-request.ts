import { JSONRPCRequestSchema } from "@modelcontextprotocol/core";
import {
  type JSONRPCRequest,
  RELATED_TASK_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";

/**
 * A lone request of this method that the SDK's stateless transport and server would answer plainly: the client
 * accepts JSON, its protocol version (if it says one) is supported, and the message is a valid JSON-RPC request
 * with nothing task-related in it. Anything else (a batch, another method, a request the transport would refuse)
 * gives undefined and is left to the SDK.
 */
export function loneRequest(headers: Headers, body: unknown, method: string): JSONRPCRequest | undefined {
  if (body === undefined || Array.isArray(body)) return undefined;
  // Told apart before any schema is parsed.
  if ((body as { method?: unknown } | null)?.method !== method) return undefined;
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const message = JSONRPCRequestSchema.safeParse(body);
  if (!message.success || message.data.method !== method) return undefined;
  const params = message.data.params;
  if (params && ("task" in params || (params._meta && RELATED_TASK_META_KEY in params._meta)))
    return undefined;
  return message.data;
}

/** The JSON answer the SDK's transport sends for one request without a session (JSON response mode). */
export function jsonRpcAnswer(body: BodyInit, status = 200): Response {
  return new Response(body, { status, headers: { "Content-Type": "application/json" } });
}
