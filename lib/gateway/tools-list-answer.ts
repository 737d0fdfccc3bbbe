import { ListToolsRequestSchema } from "@modelcontextprotocol/core";
import type { RequestId } from "@modelcontextprotocol/server";
import { jsonRpcAnswer, loneRequest } from "./lone-request";

/**
 * The id of a lone tools/list request that the SDK's stateless transport and server would answer plainly (see
 * loneRequest), without a cursor: a cursor is the pager's to read (and to refuse when it is not one of ours).
 */
export function loneToolsListId(headers: Headers, body: unknown): RequestId | undefined {
  const message = loneRequest(headers, body, "tools/list");
  if (!message || !ListToolsRequestSchema.safeParse(body).success) return undefined;
  if (message.params && "cursor" in message.params) return undefined;
  return message.id;
}

/**
 * The answer to a lone tools/list, byte for byte what the SDK's transport sends for it (JSON response mode, no
 * session), around a result serialized (and encoded) once beforehand, which is not copied.
 */
export function toolsListAnswer(id: RequestId, result: Blob): Response {
  return jsonRpcAnswer(new Blob(['{"result":', result, `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`]));
}
