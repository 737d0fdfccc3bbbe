import type {
  LoggingMessageNotificationParams,
  Progress,
  Result,
  ServerContext,
} from "@modelcontextprotocol/server";
import { type AskClient, answerSchemaOf, clientQuestions, type QuestionMethod } from "./client-questions";
import type { CallRelay } from "./endpoint";
import { envelopeOf } from "./modern-envelope";
import { atOrAbove } from "./sessions/request-relay";

/**
 * A question an upstream server asked the client during a call: `key` routes its answer back to the call on any
 * instance; the client is shown it (and answers it) under `name` where it has one, the server's own.
 */
export interface Question {
  key: string;
  name?: string;
  method: QuestionMethod;
  params: Record<string, unknown>;
}

/** The key a question is shown to the client by, in `inputRequests`, and answered by. */
export const shownKey = (question: Question) => question.name ?? question.key;

/**
 * Names a call's questions for its client: by the server's own name for each (what a 2026-07-28 server calls its
 * input request, `user_name` say), so a client sees what the server asks as the server asks it; by its routing key
 * where the server gave none or the call already showed that name.
 */
export function questionNames() {
  const used = new Set<string>();
  return (name: string | undefined): Question["name"] => {
    if (name === undefined || used.has(name)) return undefined;
    used.add(name);
    return name;
  };
}

/** What a parked 2026-07-28 call says, in order, for the instance its client comes back to. */
export type CallEvent =
  | { kind: "progress"; progress: Progress }
  | { kind: "log"; params: LoggingMessageNotificationParams }
  | { kind: "question"; question: Question }
  | { kind: "withdrawn"; key: string }
  | { kind: "result"; result: Result }
  | { kind: "error"; code: number; message: string; data?: unknown }
  | { kind: "cancelled" };

// What a 2025 server says about its own task in a question's _meta: nothing the client can use.
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * The question as the 2026-07-28 revision embeds it: an elicitation by URL carries no id of its own there, and the
 * upstream server's own task is its business.
 */
export function embedded(method: QuestionMethod, params: Record<string, unknown>): Record<string, unknown> {
  let { _meta, ...rest } = params as Record<string, unknown> & { _meta?: Record<string, unknown> };
  if (_meta && RELATED_TASK in _meta) {
    const { [RELATED_TASK]: _task, ...others } = _meta;
    _meta = Object.keys(others).length ? others : undefined;
  }
  if (method === "elicitation/create" && rest.mode === "url") {
    const { elicitationId: _id, ...withoutId } = rest;
    rest = withoutId;
  }
  return _meta ? { ...rest, _meta } : rest;
}

/** The client's answer to a question, if it is one (a malformed answer counts as none: the question is asked again). */
export function answerTo(question: Question, response: unknown): Record<string, unknown> | undefined {
  const parsed = answerSchemaOf(question.method).safeParse(response);
  return parsed.success ? (parsed.data as Record<string, unknown>) : undefined;
}

/**
 * The relay of a 2026-07-28 call: progress (when the request asked for it) and log messages (at the level the
 * request names) go to `say`, with how to tell this request's client at once; questions go to `ask`, and only
 * the kinds the request's capabilities declare (the upstream server is told the client cannot take the others).
 */
export function modernRelay(
  call: ServerContext,
  say: (event: CallEvent, live: () => Promise<void>) => void,
  ask: AskClient,
  sent: () => Promise<void>,
): CallRelay {
  const { capabilities, logLevel } = envelopeOf(call);
  const progressToken = call.mcpReq._meta?.progressToken;
  return {
    sent,
    progress:
      progressToken === undefined
        ? undefined
        : (progress) =>
            say({ kind: "progress", progress }, () =>
              call.mcpReq.notify({
                method: "notifications/progress",
                params: { ...progress, progressToken },
              }),
            ),
    log:
      logLevel === undefined
        ? undefined
        : (entry) => {
            if (atOrAbove(entry.level, logLevel))
              say({ kind: "log", params: entry }, () =>
                call.mcpReq.notify({ method: "notifications/message", params: entry }),
              );
          },
    ...clientQuestions(capabilities, ask),
  };
}
