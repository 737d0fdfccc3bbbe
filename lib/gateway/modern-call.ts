import { hkdfSync } from "node:crypto";
import {
  createRequestStateCodec,
  type InputRequests,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { authSecret } from "@/lib/auth/secret";
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
import type { QuestionMethod } from "./client-questions";
import type { GatewayCall } from "./endpoint";
import { internalError } from "./mcp-errors";
import { envelopeOf } from "./modern-envelope";
import { type ParkedCall, parkCall, type ResumedCall, resumeCall } from "./sessions/parked-calls";
import { ASK_CLIENT_TIMEOUT_MS, atOrAbove } from "./sessions/request-relay";

/**
 * What a 2026-07-28 client echoes to go on with a call (signed, so it cannot be made up): the call's session, whose
 * organization and endpoint it is, the method and what it names (tool, prompt or resource), the last progress or
 * log event it was told, the questions it was shown, and those it still has to answer.
 */
interface CallState {
  s: string;
  o: string;
  e: string;
  m: string;
  target: string;
  seen: number;
  shown: string[];
  pending: string[];
}

// Questions an upstream server asks together (the SDK's shim sends a round's questions at once) reach the client
// in one round: after the first, others that follow within this long join it.
const SETTLE_MS = 50;
// A retry waits for its call's next step this long at most without hearing from it (the instance running it may
// have stopped): longer than a question may wait for its answer.
const CALL_SILENCE_MS = ASK_CLIENT_TIMEOUT_MS + 60_000;
const STATE_TTL_SECONDS = ASK_CLIENT_TIMEOUT_MS / 1000 + 5 * 60;

let codec: RequestStateCodec<CallState> | undefined;

/** Signs and checks requestState with a key every instance derives from AUTH_SECRET. */
function stateCodec(): RequestStateCodec<CallState> {
  codec ??= createRequestStateCodec<CallState>({
    key: new Uint8Array(hkdfSync("sha256", authSecret(), "", "switchboard mcp requestState", 32)),
    ttlSeconds: STATE_TTL_SECONDS,
  });
  return codec;
}

/** The hook the SDK runs on every echoed requestState before a handler sees it: a bad one is refused (-32602). */
export const verifyRequestState = (state: string, call: ServerContext) => stateCodec().verify(state, call);

const stale = () =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    "This call is over or has expired: call the tool again without requestState.",
  );

async function askAgain(questions: Question[], state: CallState): Promise<InputRequiredResult> {
  return inputRequired({
    // As the upstream server asked them (checked by the client of upstream servers).
    inputRequests: Object.fromEntries(
      questions.map((question) => [shownKey(question), { method: question.method, params: question.params }]),
    ) as unknown as InputRequests,
    requestState: await stateCodec().mint(state),
  }) as InputRequiredResult;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * tools/call, prompts/get and resources/read for 2026-07-28 clients. A call runs as on any revision, its progress
 * and log messages on its own response. When the upstream server asks the client something (elicitation,
 * sampling, its roots, if the request's capabilities declare it), the answer is `input_required` with the question and a
 * signed requestState, and the call goes on waiting where it runs (see parkCall). The client's retry, on any
 * instance, hands the answers to it and answers with what the call does next: its result, or its next questions.
 */
export function modernCalls(db: Database, ctx: GatewayCaller, endpoint: string) {
  async function begin<T extends Result>(
    call: ServerContext,
    target: string,
    start: (call: GatewayCall) => Promise<T>,
  ): Promise<T | InputRequiredResult> {
    const { capabilities } = envelopeOf(call);
    // The call outlives this request once it has asked: only the client's cancellation ends it then.
    const running = new AbortController();
    const hungUp = () => running.abort(call.mcpReq.signal.reason);
    call.mcpReq.signal.addEventListener("abort", hungUp, { once: true });
    let parking: Promise<ParkedCall> | undefined;
    let answered = false;
    const shown: Question[] = [];
    let asked = () => {};
    const firstQuestion = new Promise<"asked">((resolve) => {
      asked = () => resolve("asked");
    });
    let sending = Promise.resolve();
    // Before the call asks anything, what it says goes to this request's client; after, into its log.
    const say = (event: CallEvent, live: () => Promise<void>) => {
      const parked = parking;
      sending = sending
        .then(() => (parked ? parked.then((call) => call.log(event)) : live()))
        .catch(() => {});
    };
    const nameOf = questionNames();
    const ask = async (
      method: QuestionMethod,
      params: Record<string, unknown>,
      signal: AbortSignal,
      serverName?: string,
    ) => {
      parking ??= parkCall(db, ctx, { endpoint, clientCapabilities: capabilities }, () =>
        running.abort(new Error("The client cancelled the call.")),
      );
      const parked = await parking;
      const withdrawn = AbortSignal.any([signal, running.signal, AbortSignal.timeout(ASK_CLIENT_TIMEOUT_MS)]);
      const { id, answer } = parked.ask(withdrawn);
      const name = nameOf(serverName);
      const question: Question = {
        key: id,
        ...(name ? { name } : {}),
        method,
        params: embedded(method, params),
      };
      say({ kind: "question", question }, async () => {});
      if (!answered) {
        shown.push(question);
        asked();
      }
      withdrawn.addEventListener("abort", () => say({ kind: "withdrawn", key: id }, async () => {}), {
        once: true,
      });
      const message = await answer;
      if ("error" in message) throw new Error(message.error.message);
      return "result" in message ? message.result : {};
    };
    const relay = modernRelay(call, say, ask, () => sending);

    const outcome = start({ signal: running.signal, relay }).then(
      (result) => ({ kind: "result", result }) as const,
      (error: unknown) => ({ kind: "error", error }) as const,
    );
    const first = await Promise.race([outcome, firstQuestion]);
    if (first !== "asked") {
      call.mcpReq.signal.removeEventListener("abort", hungUp);
      if (first.kind === "error") throw first.error;
      return first.result;
    }
    await Promise.race([outcome, sleep(SETTLE_MS)]);
    answered = true;
    call.mcpReq.signal.removeEventListener("abort", hungUp);
    const parked = await (parking as Promise<ParkedCall>);
    void outcome.then((end) => {
      if (end.kind === "result") say({ kind: "result", result: end.result }, async () => {});
      else {
        const { code, message, data } = internalError(end.error, "The tool call failed");
        say({ kind: "error", code, message, ...(data !== undefined ? { data } : {}) }, async () => {});
      }
      void sending.then(() => parked.close());
    });
    await sending;
    return askAgain(shown, {
      s: parked.sessionId,
      o: ctx.orgId,
      e: endpoint,
      m: call.mcpReq.method,
      target,
      seen: 0,
      shown: shown.map((question) => question.key),
      pending: shown.map((question) => question.key),
    });
  }

  async function resume<T extends Result>(
    call: ServerContext,
    target: string,
    state: CallState,
  ): Promise<T | InputRequiredResult> {
    if (
      state.o !== ctx.orgId ||
      state.e !== endpoint ||
      state.m !== call.mcpReq.method ||
      state.target !== target
    )
      throw stale();
    const resumed: ResumedCall | undefined = await resumeCall(db, ctx, endpoint, state.s);
    if (!resumed) throw stale();
    try {
      return (await goOn(call, resumed, state)) as T | InputRequiredResult;
    } finally {
      resumed.close();
    }
  }

  async function goOn(
    call: ServerContext,
    resumed: ResumedCall,
    state: CallState,
  ): Promise<Result | InputRequiredResult> {
    const { logLevel } = envelopeOf(call);
    const progressToken = call.mcpReq._meta?.progressToken;
    const questions = new Map<string, Question>();
    const shown = new Set(state.shown);
    const pending = new Set(state.pending);
    let seen = state.seen;
    let last = 0;
    let end: CallEvent | undefined;
    const take = async (events: { seq: number; event: object }[]) => {
      for (const { seq, event } of events as { seq: number; event: CallEvent }[]) {
        last = seq;
        if (event.kind === "question") {
          questions.set(event.question.key, event.question);
          if (!shown.has(event.question.key)) {
            shown.add(event.question.key);
            pending.add(event.question.key);
          }
        } else if (event.kind === "withdrawn") pending.delete(event.key);
        else if (event.kind === "result" || event.kind === "error") end = event;
        else if (seq > seen) {
          seen = seq;
          if (event.kind === "progress" && progressToken !== undefined)
            await call.mcpReq.notify({
              method: "notifications/progress",
              params: { ...event.progress, progressToken },
            });
          if (event.kind === "log" && logLevel !== undefined && atOrAbove(event.params.level, logLevel))
            await call.mcpReq.notify({ method: "notifications/message", params: event.params });
        }
      }
    };
    const hungUp = call.mcpReq.signal;
    // What the call said so far, then the answers this retry brings.
    await take(await resumed.events(0, 0, hungUp));
    for (const key of [...pending]) {
      const question = questions.get(key);
      const answer = question && answerTo(question, call.mcpReq.inputResponses?.[shownKey(question)]);
      if (!answer) continue;
      await resumed.answer(key, answer);
      pending.delete(key);
    }
    // Then what it does next: its end, or more to ask (gathered for a moment, so they come in one round).
    let quietSince = Date.now();
    while (!end) {
      if (pending.size > 0) {
        await take(await resumed.events(last, SETTLE_MS, hungUp));
        break;
      }
      const events = await resumed.events(last, 30_000, hungUp);
      if (hungUp.aborted) {
        // Closing the response cancels the call, as the revision says.
        await resumed.cancel();
        // Nobody is left to answer.
        throw new Error("The client cancelled the call.");
      }
      if (events.length) quietSince = Date.now();
      else if (Date.now() - quietSince > CALL_SILENCE_MS)
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          "The call stopped answering; call the tool again.",
        );
      await take(events);
    }
    const ended = end as CallEvent | undefined;
    if (ended?.kind === "result") return ended.result;
    if (ended?.kind === "error") throw new ProtocolError(ended.code, ended.message, ended.data);
    return askAgain(
      [...pending].flatMap((key) => questions.get(key) ?? []),
      { ...state, seen, shown: [...shown], pending: [...pending] },
    );
  }

  return {
    /** Runs a call of a 2026-07-28 request: a new one, or one its client goes on with (requestState). */
    run<T extends Result>(
      call: ServerContext,
      target: string,
      start: (call: GatewayCall) => Promise<T>,
    ): Promise<T | InputRequiredResult> {
      const state = call.mcpReq.requestState<CallState>();
      return state === undefined ? begin(call, target, start) : resume<T>(call, target, state);
    },
  };
}
