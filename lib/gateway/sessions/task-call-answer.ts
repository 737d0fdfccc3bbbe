import { CallToolRequestSchema, JSONRPCRequestSchema } from "@modelcontextprotocol/core";
import type { CallToolRequest, RequestId, Result } from "@modelcontextprotocol/server";
import { jsonRpcAnswer } from "../lone-request";
import { errorOf } from "../tools-call-answer";

/**
 * A lone task-augmented tools/call of a 2025-11-25 client (its params carry `task`), told apart by one look at
 * the body, so a plain call pays nothing for it. It is answered here, not by the SDK's server, whose 2025 tools/call
 * takes only a CallToolResult (never the CreateTaskResult a task-augmented call answers with).
 */
export function loneTaskCall(
  body: unknown,
): { id: RequestId; params: CallToolRequest["params"] } | undefined {
  const call = body as { method?: unknown; params?: { task?: unknown } } | null;
  if (Array.isArray(body) || call?.method !== "tools/call" || call.params?.task === undefined)
    return undefined;
  const message = JSONRPCRequestSchema.safeParse(body);
  // Invalid params are the SDK server's to refuse, with its message.
  const request = CallToolRequestSchema.safeParse(body);
  return message.success && request.success
    ? { id: message.data.id, params: request.data.params }
    : undefined;
}

/** The JSON answer to a task-augmented call: the task it started, or why none was. */
export async function taskCallAnswer(id: RequestId, start: () => Promise<Result>): Promise<Response> {
  let message: object;
  try {
    message = { result: await start(), jsonrpc: "2.0", id };
  } catch (error) {
    message = { jsonrpc: "2.0", id, error: errorOf(error) };
  }
  return jsonRpcAnswer(JSON.stringify(message));
}
