import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Result,
  type ServerContext,
  type ServerRequest,
  type Task,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";
import type { CallEvent, Question } from "../call-events";
import type { GatewayCaller } from "../caller";
import { answerSchemaOf, clientQuestions } from "../client-questions";
import type { GatewayCall } from "../endpoint";
import { pageOf } from "../list-pages";
import { POLL_INTERVAL_MS, startParkedTask, TASK_TTL_MS, taskOf, unknownTask } from "../modern-tasks";
import { parkedCallLogs, type ResumedCall, resumeCall } from "./parked-calls";
import { ASK_CLIENT_TIMEOUT_MS } from "./request-relay";
import { parkedCallsMarked } from "./session-store";

/** Marks the parked call of a 2025-11-25 client's task in its capabilities, so tasks/list finds only those. */
export const SESSION_TASK_MARK = "switchboard/task";

/** What the gateway declares to 2025-11-25 clients: task-augmented tools/call, tasks/list and tasks/cancel. */
export const SESSION_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

// tasks/list pages, as the SDK's own task store does.
const TASKS_PAGE_SIZE = 50;
// tasks/result waits for the task's end in turns of this long, so a cancelled request stops waiting soon.
const RESULT_WAIT_MS = 30_000;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

type TaskState = ReturnType<typeof taskOf>;

/** The 2025-11-25 Task of a task's state (its result is tasks/result's, not part of it). */
function legacyTask(state: TaskState): Task {
  const statusMessage =
    state.status === "failed" && "error" in state
      ? state.error.message
      : (state as { statusMessage?: string }).statusMessage;
  return {
    taskId: state.taskId,
    status: state.status as Task["status"],
    ...(statusMessage ? { statusMessage } : {}),
    createdAt: state.createdAt,
    lastUpdatedAt: state.lastUpdatedAt,
    ttl: TASK_TTL_MS,
    pollInterval: POLL_INTERVAL_MS,
  };
}

/**
 * One of the task's questions, asked on the tasks/result stream with the task's id, as 2025-11-25 has it; the
 * client's answer goes to the task wherever it runs. Unanswered, it stays the task's (another tasks/result asks it).
 */
async function putToClient(taskId: string, task: ResumedCall, call: ServerContext, question: Question) {
  const params: Record<string, unknown> = { ...question.params };
  // A URL elicitation names itself in 2025-11-25; the task's question key is unique.
  if (question.method === "elicitation/create" && params.mode === "url") params.elicitationId = question.key;
  const _meta = { ...(params._meta as object | undefined), [RELATED_TASK_META_KEY]: { taskId } };
  try {
    const answer = await call.mcpReq.send(
      { method: question.method, params: { ...params, _meta } } as ServerRequest,
      answerSchemaOf(question.method),
      { signal: call.mcpReq.signal, timeout: ASK_CLIENT_TIMEOUT_MS },
    );
    await task.noteAnswered(question.key);
    await task.answer(question.key, answer as Record<string, unknown>);
  } catch (error) {
    logger.debug("a task's question was not answered", { taskId, err: error });
  }
}

/**
 * Tasks for 2025-11-25 clients in a session (task-augmented tools/call, tasks/get, tasks/result, tasks/list,
 * tasks/cancel), on either endpoint. The gateway runs the task itself, calling the upstream tool (as a task when
 * its server runs it as one) and waiting for it, so a task's id is the gateway's: kept in the database like the
 * 2026-07-28 extension's tasks, it is found from any instance and any later session of the same key or grant on
 * the same endpoint, and from no other (another key's or organization's id is unknown). The upstream server's
 * questions during a task (those the session's client declared it takes) make it input_required, and reach the
 * client on the stream of its next tasks/result, as the 2025-11-25 revision has them, from any instance.
 */
export function sessionTasks(db: Database, ctx: GatewayCaller, endpoint: string) {
  async function resumed<T>(taskId: string, use: (task: ResumedCall) => Promise<T>): Promise<T> {
    const task = await resumeCall(db, ctx, endpoint, taskId);
    // A 2026-07-28 call's parking is no 2025 task.
    if (!task?.clientCapabilities[SESSION_TASK_MARK]) {
      task?.close();
      throw unknownTask(taskId);
    }
    try {
      return await use(task);
    } finally {
      task.close();
    }
  }
  const stateOf = async (taskId: string, task: ResumedCall) =>
    taskOf(taskId, task.createdAt, (await task.log()) as CallEvent[], await task.answered());

  return {
    /**
     * Starts the call as a task and answers at once with it (a CreateTaskResult). The questions it may ask are those
     * the session's client declared (none without a session).
     */
    async start(
      run: (call: GatewayCall) => Promise<unknown>,
      clientCapabilities: Record<string, unknown> = {},
    ): Promise<Result> {
      const started = await startParkedTask(
        db,
        ctx,
        { endpoint, clientCapabilities: { ...clientCapabilities, [SESSION_TASK_MARK]: {} } },
        // The task's progress is its status message; its log messages have no request to go with.
        ({ say, ask, sent }) => ({
          sent,
          progress: (progress) => say({ kind: "progress", progress }),
          ...clientQuestions(clientCapabilities, ask),
        }),
        run,
      );
      const task: Task = {
        taskId: started.taskId,
        status: "working",
        createdAt: started.createdAt,
        lastUpdatedAt: started.createdAt,
        ttl: TASK_TTL_MS,
        pollInterval: POLL_INTERVAL_MS,
      };
      return { task };
    },
    /** tasks/get: the task's status. */
    get: (taskId: string): Promise<Task> =>
      resumed(taskId, async (task) => legacyTask(await stateOf(taskId, task))),
    /**
     * tasks/result: waits for the task's end, then answers as its call would have (its result, or its error); the
     * task's questions go to the client on this request's stream meanwhile, and its answers back to the task.
     */
    result: (taskId: string, call: ServerContext): Promise<Result> =>
      resumed(taskId, async (task) => {
        const events: CallEvent[] = [];
        const asked = new Set<string>();
        let after = 0;
        for (;;) {
          const found = await task.events(after, RESULT_WAIT_MS, call.mcpReq.signal);
          for (const { seq, event } of found) {
            after = seq;
            events.push(event as CallEvent);
          }
          const state = taskOf(taskId, task.createdAt, events, asked);
          if (state.status === "completed" && "result" in state) {
            const result = state.result as Result;
            return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
          }
          if (state.status === "failed" && "error" in state)
            throw new ProtocolError(state.error.code, state.error.message, state.error.data);
          if (state.status === "cancelled")
            throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Task ${taskId} was cancelled.`, {
              taskId,
            });
          if (state.status === "input_required" && "inputRequests" in state) {
            const answered = await task.answered();
            for (const [key, { method, params }] of Object.entries(state.inputRequests)) {
              asked.add(key);
              if (!answered.has(key)) void putToClient(taskId, task, call, { key, method, params });
            }
          }
          call.mcpReq.signal.throwIfAborted();
        }
      }),
    /** tasks/list: the key's tasks on this endpoint, newest first, in pages. */
    async list(cursor: string | undefined): Promise<{ tasks: Task[]; nextCursor?: string }> {
      const rows = await parkedCallsMarked(db, ctx, endpoint, SESSION_TASK_MARK);
      const page = pageOf("tasks", rows, cursor, TASKS_PAGE_SIZE);
      const logs = await parkedCallLogs(
        db,
        page.items.map((row) => row.id),
      );
      const tasks = page.items.map((row) => {
        const log = logs.get(row.id) ?? { events: [], answered: new Set<string>() };
        return legacyTask(taskOf(row.id, row.createdAt, log.events as CallEvent[], log.answered));
      });
      return {
        tasks,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
    /** tasks/cancel: ends the task where it runs; a task that already ended cannot be cancelled. */
    cancel: (taskId: string): Promise<Task> =>
      resumed(taskId, async (task) => {
        const state = await stateOf(taskId, task);
        if (TERMINAL.has(state.status))
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Task ${taskId} already ended (${state.status}): it cannot be cancelled.`,
            { taskId },
          );
        await task.cancel();
        return { ...legacyTask(state), status: "cancelled", lastUpdatedAt: new Date().toISOString() };
      }),
  };
}
