import { CLIENT_CAPABILITIES_META_KEY, type Client, ProtocolError } from "@modelcontextprotocol/client";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { currentRelay, type DownstreamRelay } from "../relay/downstream-relay";
import { callersCapabilities } from "./callers-capabilities";
import { rawRequest } from "./raw-request";

/** The tasks extension of the 2026-07-28 revision (SEP-2663), declared per request in the client's capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

// How often a task is read: at the server's pace, within these bounds.
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5000;
// How long a caller's cancellation waits for the server to take it, at most.
const CANCEL_WAIT_MS = 2000;

const InputRequestsSchema = z.record(
  z.string(),
  z.object({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() }),
);

/** A task as tasks/get reads it (the DetailedTask): its status, and its result, error or questions. */
const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
  result: z.looseObject({}).optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  inputRequests: InputRequestsSchema.optional(),
});
type Task = z.infer<typeof TaskSchema>;

/**
 * What a task call answers at once: the task (a CreateTaskResult), the result when the server ran it there, or
 * questions to answer before the server makes the task (input_required, answered by calling again).
 */
const CreatedSchema = z.union([
  z.looseObject({ resultType: z.literal("task"), taskId: z.string(), pollIntervalMs: z.number().optional() }),
  z.looseObject({ resultType: z.literal("complete") }),
  z.looseObject({
    resultType: z.literal("input_required"),
    inputRequests: InputRequestsSchema,
    requestState: z.string().optional(),
  }),
]);
type Created = z.infer<typeof CreatedSchema>;

const AckSchema = z.looseObject({});
const ResultSchemas: Record<string, z.ZodType> = { "tasks/get": TaskSchema };

/** Whether the server refused a plain call because the tool runs only as a task (-32021 naming the extension). */
export function refusedForNoTasks(error: unknown): boolean {
  if (!(error instanceof ProtocolError) || error.code !== -32021) return false;
  const data = error.data as { requiredCapabilities?: { extensions?: Record<string, unknown> } } | undefined;
  return data?.requiredCapabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

const pollDelay = (ms: number | undefined) => Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms ?? 1000));

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** The call's timeout, counted afresh whenever the task moves on and paused while the caller is asked. */
function deadline(timeoutMs: number) {
  const expired = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        expired.abort(new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: timeoutMs })),
      timeoutMs,
    );
  };
  restart();
  return {
    signal: expired.signal,
    restart,
    pause: () => clearTimeout(timer),
    stop: () => clearTimeout(timer),
  };
}

/** Asks the caller one of the task's questions through its relay; one it cannot take fails the call. */
function ask(
  relay: DownstreamRelay | undefined,
  key: string,
  question: z.infer<typeof InputRequestsSchema>[string],
  signal: AbortSignal,
) {
  const params = (question.params ?? {}) as never;
  if (question.method === "elicitation/create" && relay?.elicit) return relay.elicit(params, signal, key);
  if (question.method === "sampling/createMessage" && relay?.createMessage)
    return relay.createMessage(params, signal, key);
  if (question.method === "roots/list" && relay?.listRoots) return relay.listRoots(signal, key);
  throw new McpError(
    ErrorCode.MethodNotFound,
    `The client of this call cannot take ${question.method} requests, which the task asked.`,
  );
}

/**
 * Calls a tool of a 2026-07-28 server as a task and waits for it here, so the caller sees one plain call (as
 * `callToolAsTask` does at 2025-11-25): the call declares the tasks extension, the server answers with the task,
 * which is read with tasks/get at the server's pace until it ends. Its status changes reach the caller as
 * progress, its questions are asked of the caller through the relay and answered with tasks/update, and a caller
 * that gives up cancels it (tasks/cancel). A completed task's result is the call's result (even one with
 * isError); a failed one throws the JSON-RPC error it carries.
 *
 * The tools/call itself is sent past the client's codec (`rawRequest`): that codec refuses a `resultType: "task"`
 * answer. tasks/* go through the client (`request` with a schema lets them through, with their Mcp-Name header).
 */
export async function callToolAsModernTask(
  client: Client,
  params: CallToolRequest["params"],
  options: RequestOptions,
  envelope: { timeoutMs: number; meta: Record<string, unknown> },
): Promise<CallToolResult> {
  const relay = currentRelay();
  const capabilities = { ...callersCapabilities(), extensions: { [TASKS_EXTENSION]: {} } };
  const meta = { [CLIENT_CAPABILITIES_META_KEY]: capabilities };
  const timer = deadline(envelope.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  const onTask = (method: string, taskParams: Record<string, unknown>) =>
    client.request(
      { method, params: { ...taskParams, _meta: meta } } as never,
      ResultSchemas[method] ?? AckSchema,
      {
        signal,
        timeout: envelope.timeoutMs,
      },
    );
  let taskId: string | undefined;
  let ended = false;
  try {
    let call: Record<string, unknown> = { ...params, _meta: { ...envelope.meta, ...meta, ...params._meta } };
    let created: Created;
    // A server may ask first, and make the task once answered (SEP-2322's rounds, then the task).
    for (;;) {
      created = CreatedSchema.parse(await rawRequest(client, "tools/call", call, signal));
      if (created.resultType !== "input_required") break;
      timer.pause();
      const answers = await Promise.all(
        Object.entries(created.inputRequests).map(
          async ([key, question]) => [key, await ask(relay, key, question, signal)] as const,
        ),
      );
      timer.restart();
      const { requestState } = created;
      call = {
        ...call,
        inputResponses: Object.fromEntries(answers),
        ...(requestState !== undefined ? { requestState } : {}),
      };
    }
    // A server may run a quick task at once and answer with its result.
    if (created.resultType === "complete") {
      const { resultType: _complete, ...result } = created;
      return result as CallToolResult;
    }
    taskId = created.taskId;
    let shown = "";
    let step = 0;
    let delay = pollDelay(created.pollIntervalMs);
    const asked = new Set<string>();
    for (;;) {
      const task = (await onTask("tasks/get", { taskId })) as Task;
      const now = `${task.status}\n${task.statusMessage ?? ""}`;
      if (now !== shown) {
        shown = now;
        step += 1;
        timer.restart();
        options.onprogress?.({ progress: step, message: task.statusMessage ?? task.status });
      }
      delay = pollDelay(task.pollIntervalMs ?? delay);
      ended = ["completed", "failed", "cancelled"].includes(task.status);
      if (task.status === "completed") {
        const { resultType: _complete, ...result } = task.result ?? { content: [] };
        return result as CallToolResult;
      }
      if (task.status === "failed") {
        const error = task.error ?? { code: ErrorCode.InternalError, message: "The task failed." };
        throw new McpError(error.code, error.message, error.data);
      }
      if (task.status === "cancelled")
        throw new McpError(ErrorCode.InternalError, "The server cancelled the task.");
      const pending = task.inputRequests ?? {};
      // A question the server no longer shows was taken; its key may be used again for a new one.
      for (const key of asked) if (!(key in pending)) asked.delete(key);
      const questions = Object.entries(pending).filter(([key]) => !asked.has(key));
      if (task.status === "input_required" && questions.length) {
        for (const [key] of questions) asked.add(key);
        // The caller's answer may take a while: that is not the server's time.
        timer.pause();
        const answers = await Promise.all(
          questions.map(async ([key, question]) => [key, await ask(relay, key, question, signal)] as const),
        );
        timer.restart();
        await onTask("tasks/update", { taskId, inputResponses: Object.fromEntries(answers) });
        continue;
      }
      await sleep(delay, signal);
    }
  } catch (error) {
    // A call given up (by its caller or its timeout) or failed here ends the task on the server too.
    if (taskId !== undefined && !ended)
      await client
        .request({ method: "tasks/cancel", params: { taskId, _meta: meta } } as never, AckSchema, {
          timeout: CANCEL_WAIT_MS,
        })
        .catch(() => {});
    throw timer.signal.aborted ? timer.signal.reason : error;
  } finally {
    timer.stop();
  }
}
