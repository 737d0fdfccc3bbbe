import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import {
  answerTo,
  type CallEvent,
  embedded,
  modernRelay,
  type Question,
  questionNames,
  shownKey,
} from "./call-events";
import type { GatewayCaller } from "./caller";
import type { CallRelay, GatewayCall } from "./endpoint";
import { internalError } from "./mcp-errors";
import { envelopeOf } from "./modern-envelope";
import { parkCall, type ResumedCall, resumeCall } from "./sessions/parked-calls";
import { ASK_CLIENT_TIMEOUT_MS } from "./sessions/request-relay";

/** The tasks extension of the 2026-07-28 revision (SEP-2663), negotiated in capabilities.extensions. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

// A task is kept as long as its session: an hour after it was last looked at.
export const TASK_TTL_MS = 60 * 60_000;
export const POLL_INTERVAL_MS = 1000;

/** Whether the request's client takes tasks (declares the extension in its capabilities). */
export function takesTasks(call: ServerContext): boolean {
  const extensions = envelopeOf(call).capabilities.extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

const needsTasks = () =>
  new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });

export const unknownTask = (taskId: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `No task ${taskId} for this key on this endpoint.`, {
    taskId,
  });

/** A task's state, read from what its call said: its status, and its result, error or questions. */
export function taskOf(taskId: string, createdAt: Date, events: CallEvent[], answered: Set<string>) {
  const questions = new Map<string, Question>();
  let statusMessage: string | undefined;
  let end: CallEvent | undefined;
  let lastUpdatedAt = createdAt.toISOString();
  for (const event of events) {
    lastUpdatedAt = (event as { at?: string }).at ?? lastUpdatedAt;
    if (event.kind === "question") questions.set(event.question.key, event.question);
    else if (event.kind === "withdrawn") questions.delete(event.key);
    else if (event.kind === "progress" && event.progress.message) statusMessage = event.progress.message;
    else if (event.kind === "result" || event.kind === "error" || event.kind === "cancelled") end = event;
  }
  const pending = [...questions.values()].filter((question) => !answered.has(question.key));
  const task = {
    taskId,
    createdAt: createdAt.toISOString(),
    lastUpdatedAt,
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  if (end?.kind === "result") return { ...task, status: "completed", result: end.result };
  if (end?.kind === "error")
    return {
      ...task,
      status: "failed",
      error: { code: end.code, message: end.message, ...(end.data !== undefined ? { data: end.data } : {}) },
    };
  if (end?.kind === "cancelled") return { ...task, status: "cancelled" };
  if (pending.length)
    return {
      ...task,
      status: "input_required",
      inputRequests: Object.fromEntries(
        pending.map((question) => [shownKey(question), { method: question.method, params: question.params }]),
      ),
    };
  return { ...task, status: "working", ...(statusMessage ? { statusMessage } : {}) };
}

/** How a task's call speaks: `say` keeps an event in its log, `ask` puts a question to whoever answers the task. */
export interface TaskVoice {
  say(event: CallEvent): void;
  ask(method: Question["method"], params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  sent(): Promise<void>;
}

/**
 * Runs a call as a task, on this instance, under a session of its own (parkCall) owned by the caller on this
 * endpoint: everything it says (progress, questions, its end) goes into that session's log in order, so the task
 * is read, answered and cancelled from any instance, and only by the key or grant that started it. The task's id is
 * that session's id.
 */
export async function startParkedTask(
  db: Database,
  ctx: GatewayCaller,
  opening: { endpoint: string; clientCapabilities: Record<string, unknown> },
  relayOf: (voice: TaskVoice) => CallRelay,
  run: (call: GatewayCall) => Promise<unknown>,
): Promise<{ taskId: string; createdAt: string }> {
  const running = new AbortController();
  let cancelled = false;
  const parked = await parkCall(db, ctx, opening, () => {
    cancelled = true;
    running.abort(new Error("The client cancelled the task."));
  });
  let sending = Promise.resolve();
  const say = (event: CallEvent) => {
    sending = sending.then(() => parked.log(event)).catch(() => {});
  };
  const nameOf = questionNames();
  const ask = async (
    method: Question["method"],
    params: Record<string, unknown>,
    signal: AbortSignal,
    serverName?: string,
  ) => {
    const withdrawn = AbortSignal.any([signal, running.signal, AbortSignal.timeout(ASK_CLIENT_TIMEOUT_MS)]);
    const { id, answer } = parked.ask(withdrawn);
    const name = nameOf(serverName);
    say({
      kind: "question",
      question: { key: id, ...(name ? { name } : {}), method, params: embedded(method, params) },
    });
    withdrawn.addEventListener("abort", () => say({ kind: "withdrawn", key: id }), { once: true });
    const message = await answer;
    if ("error" in message) throw new Error(message.error.message);
    return "result" in message ? message.result : {};
  };
  const relay = relayOf({ say, ask, sent: () => sending });
  void run({ signal: running.signal, relay })
    .then(
      // A cancelled call may still answer (the catalog reports it as an error result): it stays cancelled.
      (result) => say(cancelled ? { kind: "cancelled" } : { kind: "result", result: result as Result }),
      (error: unknown) => {
        if (cancelled) return say({ kind: "cancelled" });
        const { code, message, data } = internalError(error, "The task failed");
        say({ kind: "error", code, message, ...(data !== undefined ? { data } : {}) });
      },
    )
    .finally(() => void sending.then(() => parked.close()));
  return { taskId: parked.sessionId, createdAt: new Date().toISOString() };
}

/**
 * Tasks for 2026-07-28 clients that take them (SEP-2663): a call of a tool its server runs as a task answers at
 * once with the task, and runs on where it started, saying everything (progress, questions, its end) into the
 * log of a session of its own (parkCall), so tasks/get, tasks/update and tasks/cancel work on any instance and
 * only for the key that made the call. A question waits for tasks/update; the task says input_required meanwhile.
 */
export function modernTasks(db: Database, ctx: GatewayCaller, endpoint: string) {
  async function resumed<T>(call: ServerContext, taskId: string, use: (task: ResumedCall) => Promise<T>) {
    if (!takesTasks(call)) throw needsTasks();
    const task = await resumeCall(db, ctx, endpoint, taskId);
    if (!task) throw unknownTask(taskId);
    try {
      return await use(task);
    } finally {
      task.close();
    }
  }
  const read = async (task: ResumedCall) => (await task.log()) as CallEvent[];

  return {
    /** Starts the call as a task and answers with it in the result's place (a CreateTaskResult: the task, flat). */
    async start<T extends Result>(call: ServerContext, run: (call: GatewayCall) => Promise<T>): Promise<T> {
      const started = await startParkedTask(
        db,
        ctx,
        { endpoint, clientCapabilities: envelopeOf(call).capabilities },
        ({ say, ask, sent }) => {
          // The task's progress is its status: reported whether or not the request asked for progress.
          const relay = modernRelay(call, say, ask, sent);
          relay.progress = (progress) => say({ kind: "progress", progress });
          return relay;
        },
        run,
      );
      return {
        resultType: "task",
        taskId: started.taskId,
        status: "working",
        createdAt: started.createdAt,
        lastUpdatedAt: started.createdAt,
        ttlMs: TASK_TTL_MS,
        pollIntervalMs: POLL_INTERVAL_MS,
      } as Result as T;
    },
    /** tasks/get: the task's status, with its result or error once it ended, or the questions it waits on. */
    get: (call: ServerContext, taskId: string) =>
      resumed(call, taskId, async (task) =>
        taskOf(taskId, task.createdAt, await read(task), await task.answered()),
      ),
    /** tasks/update: hands over answers to the task's questions; unknown keys and malformed answers are left out. */
    update: (call: ServerContext, taskId: string, responses: Record<string, unknown>) =>
      resumed(call, taskId, async (task) => {
        // By the key each question was shown under; answered by its routing key.
        const questions = new Map(
          (await read(task)).flatMap((event) =>
            event.kind === "question" ? [[shownKey(event.question), event.question] as const] : [],
          ),
        );
        const answered = await task.answered();
        for (const [shown, response] of Object.entries(responses)) {
          const question = questions.get(shown);
          const answer = question && !answered.has(question.key) ? answerTo(question, response) : undefined;
          if (!question || !answer) continue;
          await task.noteAnswered(question.key);
          await task.answer(question.key, answer);
        }
        return {};
      }),
    /** tasks/cancel: ends the task where it runs (once ended, it stays as it ended). */
    cancel: (call: ServerContext, taskId: string) =>
      resumed(call, taskId, async (task) => {
        const events = await read(task);
        if (!events.some((event) => ["result", "error", "cancelled"].includes(event.kind)))
          await task.cancel();
        return {};
      }),
  };
}
