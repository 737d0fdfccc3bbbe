import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * Whether a plain call was refused because the tool runs only as a task (its taskSupport is "required"): refused
 * by the SDK's client, which knows it from the listing, or by the server, before the tool ran.
 */
export function refusedForNoTask(outcome: unknown): boolean {
  if (outcome instanceof McpError)
    return outcome.code === ErrorCode.InvalidRequest && /requires task-based execution/.test(outcome.message);
  const result = outcome as Partial<CallToolResult> | undefined;
  const [first] = result?.isError ? (result.content ?? []) : [];
  return first?.type === "text" && /requires task augmentation/.test(first.text);
}

/**
 * Calls a tool as a task and waits for its result here, so the caller sees one plain call: the task's status
 * changes reach the caller as progress (with the server's status message), and what the server asks during the
 * task comes through the client's handlers as in any call.
 */
export async function callToolAsTask(
  client: Client,
  params: CallToolRequest["params"],
  options: RequestOptions,
): Promise<CallToolResult> {
  let step = 0;
  const stream = client.experimental.tasks.callToolStream(params, CallToolResultSchema, {
    ...options,
    task: {},
  });
  for await (const message of stream) {
    if (message.type === "result") return message.result as CallToolResult;
    if (message.type === "error") throw message.error;
    step += 1;
    options.onprogress?.({ progress: step, message: message.task.statusMessage ?? message.task.status });
  }
  throw new McpError(ErrorCode.InternalError, "The task ended without a result.");
}
