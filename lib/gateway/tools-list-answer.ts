import {
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  RELATED_TASK_META_KEY,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The id of a lone tools/list request that the SDK's stateless transport and server would answer plainly: the
 * client accepts JSON, its protocol version (if it says one) is supported, and the message is a valid tools/list
 * request with nothing task-related in it and no cursor. Anything else (a batch, another method, a request the transport would
 * refuse) gives undefined and is left to the SDK.
 */
export function loneToolsListId(headers: Headers, body: unknown): RequestId | undefined {
  if (body === undefined || Array.isArray(body)) return undefined;
  // Most messages are something else (tools/call): told apart before any schema is parsed.
  if ((body as { method?: unknown } | null)?.method !== "tools/list") return undefined;
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const message = JSONRPCRequestSchema.safeParse(body);
  if (!message.success || message.data.method !== "tools/list") return undefined;
  if (!ListToolsRequestSchema.safeParse(body).success) return undefined;
  const params = message.data.params;
  if (params && ("task" in params || (params._meta && RELATED_TASK_META_KEY in params._meta)))
    return undefined;
  // A cursor is the pager's to read (and to refuse when it is not one of ours).
  if (params && "cursor" in params) return undefined;
  return message.data.id;
}

/**
 * The answer to a lone tools/list, byte for byte what the SDK's transport sends for it (JSON response mode, no
 * session), around a result serialized (and encoded) once beforehand, which is not copied.
 */
export function toolsListAnswer(id: RequestId, result: Blob): Response {
  const body = new Blob(['{"result":', result, `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`]);
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
}
