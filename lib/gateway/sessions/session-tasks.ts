import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Result,
  type ServerContext,
  type Task,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import type { CallEvent } from "../call-events";
import type { GatewayCaller } from "../caller";
import type { GatewayCall } from "../endpoint";
import { pageOf } from "../list-pages";
import { POLL_INTERVAL_MS, startParkedTask, TASK_TTL_MS, taskOf, unknownTask } from "../modern-tasks";
import { type ResumedCall, resumeCall } from "./parked-calls";
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

const eventsOf = (found: { event: object }[]) => found.map(({ event }) => event as CallEvent);

/**
 * Tasks for 2025-11-25 clients in a session (task-augmented tools/call, tasks/get, tasks/result, tasks/list,
 * tasks/cancel), on either endpoint. The gateway runs the task itself, calling the upstream tool (as a task when
 * its server runs it as one) and waiting for it, so a task's id is the gateway's: kept in the database like the
 * 2026-07-28 extension's tasks, it is found from any instance and any later session of the same key or grant on
 * the same endpoint, and from no other (another key's or organization's id is unknown). The upstream server's
 * questions during a task are not relayed: the task runs as for a client that declared no elicitation or sampling.
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
    taskOf(
      taskId,
      task.createdAt,
      eventsOf(await task.events(0, 0, AbortSignal.timeout(ASK_CLIENT_TIMEOUT_MS))),
      new Set(),
    );

  return {
    /** Starts the call as a task and answers at once with it (a CreateTaskResult). */
    async start(run: (call: GatewayCall) => Promise<unknown>): Promise<Result> {
      const started = await startParkedTask(
        db,
        ctx,
        { endpoint, clientCapabilities: { [SESSION_TASK_MARK]: {} } },
        // The task's progress is its status message; what else the upstream says has no request to go with.
        ({ say, sent }) => ({ sent, progress: (progress) => say({ kind: "progress", progress }) }),
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
    /** tasks/result: waits for the task's end, then answers as its call would have (its result, or its error). */
    result: (taskId: string, call: ServerContext): Promise<Result> =>
      resumed(taskId, async (task) => {
        const events: CallEvent[] = [];
        let after = 0;
        for (;;) {
          const found = await task.events(after, RESULT_WAIT_MS, call.mcpReq.signal);
          for (const { seq, event } of found) {
            after = seq;
            events.push(event as CallEvent);
          }
          const state = taskOf(taskId, task.createdAt, events, new Set());
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
          call.mcpReq.signal.throwIfAborted();
        }
      }),
    /** tasks/list: the key's tasks on this endpoint, newest first, in pages. */
    async list(cursor: string | undefined): Promise<{ tasks: Task[]; nextCursor?: string }> {
      const rows = await parkedCallsMarked(db, ctx, endpoint, SESSION_TASK_MARK);
      const page = pageOf("tasks", rows, cursor, TASKS_PAGE_SIZE);
      const tasks = await Promise.all(
        page.items.map(async (row) => {
          const task = await resumeCall(db, ctx, endpoint, row.id);
          if (!task) return undefined;
          try {
            return legacyTask(await stateOf(row.id, task));
          } finally {
            task.close();
          }
        }),
      );
      return {
        tasks: tasks.filter((task): task is Task => task !== undefined),
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
