import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { onChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import type { GatewayCaller } from "../caller";
import { SESSION_EVENTS_CHANNEL, sessionEventsAfter, sessionLogs, storeEvents } from "./session-events";
import { openExchange, sendToSessionRequests } from "./session-inbox";
import { findSession, openSession, PARKING_REVISION } from "./session-store";

const CALL_STREAM = "call";
// Answers handed over for a task's questions, noted by whichever instance took them (tasks/update).
const ANSWERS_STREAM = "answers";
// How the client's cancellation names the call it ends.
const THE_CALL = "call";

/**
 * A 2026-07-28 call that asked its client a question (or a task) and goes on running on this instance while the
 * client answers or polls: it has a session of its own (owned like any session, so only its caller continues it), its answers
 * come back through the session inbox from whichever instance the client retries on, and what it says from now on
 * (progress, more questions, its end) is kept in order in the session's events for that instance to read.
 */
export interface ParkedCall {
  sessionId: string;
  /** A question for the client: the id its answer comes back under (unique across instances), and the answer. */
  ask(signal: AbortSignal): { id: string; answer: Promise<JSONRPCMessage> };
  /** Keeps what the call says next, in order. */
  log(event: object): Promise<void>;
  /** The call is over: no more answers are taken here. */
  close(): void;
}

export async function parkCall(
  db: Database,
  ctx: GatewayCaller,
  opening: { endpoint: string; clientCapabilities: Record<string, unknown> },
  onCancel: () => void,
): Promise<ParkedCall> {
  const session = await openSession(db, ctx, { ...opening, protocolVersion: PARKING_REVISION });
  const waiting = new Map<number, (message: JSONRPCMessage) => void>();
  const exchange = await openExchange(db, session.id, [THE_CALL], (message) => {
    if ("id" in message && typeof message.id === "number") waiting.get(message.id)?.(message);
    else if ("method" in message && message.method === "notifications/cancelled") onCancel();
  });
  let asked = 0;
  let seq = 0;
  let writing = Promise.resolve();
  return {
    sessionId: session.id,
    ask(signal) {
      const local = ++asked;
      const id = exchange.outgoingId(local);
      const answer = new Promise<JSONRPCMessage>((resolve, reject) => {
        const stop = () => {
          waiting.delete(local);
          reject(signal.reason ?? new Error("The question was withdrawn."));
        };
        signal.addEventListener("abort", stop, { once: true });
        waiting.set(local, (message) => {
          signal.removeEventListener("abort", stop);
          waiting.delete(local);
          resolve(message);
        });
      });
      return { id, answer };
    },
    log(event) {
      // When it was said: a task's lastUpdatedAt.
      const entry = { seq: ++seq, message: { ...event, at: new Date().toISOString() } };
      writing = writing.then(() => storeEvents(db, session.id, CALL_STREAM, [entry]));
      return writing;
    },
    close: () => exchange.close(),
  };
}

/** A parked call as the instance its client retries on sees it: what it said, and the way to answer it. */
export interface ResumedCall {
  /** When the call was parked (a task's creation). */
  createdAt: Date;
  /** What it was parked with: its client's capabilities (and a 2025-11-25 task's mark, see session-tasks.ts). */
  clientCapabilities: Record<string, unknown>;
  /** Keeps that the question under this key was answered, for whoever reads the call next. */
  noteAnswered(key: string): Promise<void>;
  /** The keys of the questions whose answers were handed over. */
  answered(): Promise<Set<string>>;
  /** Everything the call said so far, in order. */
  log(): Promise<object[]>;
  /** What the call said after `afterSeq`, in order; when nothing yet, waits up to `waitMs` for something. */
  events(afterSeq: number, waitMs: number, signal: AbortSignal): Promise<{ seq: number; event: object }[]>;
  answer(id: string, result: Record<string, unknown>): Promise<void>;
  cancel(): Promise<void>;
  close(): void;
}

const answeredKey = (note: object) => String((note as { key?: unknown }).key);

/**
 * What each of these parked calls said so far and which of its questions were answered, in one read (a page of
 * tasks/list). The ids must be the caller's own (parkedCallsMarked finds only those).
 */
export async function parkedCallLogs(
  db: Database,
  sessionIds: string[],
): Promise<Map<string, { events: object[]; answered: Set<string> }>> {
  const logs = new Map(sessionIds.map((id) => [id, { events: [] as object[], answered: new Set<string>() }]));
  for (const row of await sessionLogs(db, sessionIds, [CALL_STREAM, ANSWERS_STREAM])) {
    const log = logs.get(row.sessionId);
    if (row.streamId === CALL_STREAM) log?.events.push(row.message);
    else log?.answered.add(answeredKey(row.message));
  }
  return logs;
}

/** The caller's parked call with this session id on this endpoint, or undefined when it is over or not theirs. */
export async function resumeCall(
  db: Database,
  ctx: GatewayCaller,
  endpoint: string,
  sessionId: string,
): Promise<ResumedCall | undefined> {
  const session = await findSession(db, ctx, endpoint, sessionId);
  if (!session || session.protocolVersion !== PARKING_REVISION) return undefined;
  let woken: () => void = () => {};
  let pending = false;
  const unlisten = await onChange(db, SESSION_EVENTS_CHANNEL, (payload) => {
    if (payload !== sessionId && payload !== "*") return;
    pending = true;
    woken();
  });
  return {
    createdAt: session.createdAt,
    clientCapabilities: session.clientCapabilities,
    noteAnswered: (key) =>
      storeEvents(db, sessionId, ANSWERS_STREAM, [{ seq: Date.now(), message: { key } }]),
    async answered() {
      const notes = await sessionLogs(db, [sessionId], [ANSWERS_STREAM]);
      return new Set(notes.map(({ message }) => answeredKey(message)));
    },
    log: async () => (await sessionLogs(db, [sessionId], [CALL_STREAM])).map(({ message }) => message),
    async events(afterSeq, waitMs, signal) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        pending = false;
        const found = await sessionEventsAfter(db, sessionId, CALL_STREAM, afterSeq);
        if (found.length || Date.now() >= deadline || signal.aborted)
          return found.map(({ seq, message }) => ({ seq, event: message }));
        // A change announced while reading is not waited for.
        if (pending) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          signal.addEventListener("abort", done, { once: true });
          woken = done;
          function done() {
            clearTimeout(timer);
            signal.removeEventListener("abort", done);
            woken = () => {};
            resolve();
          }
        });
      }
    },
    answer: (id, result) => sendToSessionRequests(db, sessionId, { jsonrpc: "2.0", id, result }),
    cancel: () =>
      sendToSessionRequests(db, sessionId, {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: THE_CALL },
      }),
    close: unlisten,
  };
}
