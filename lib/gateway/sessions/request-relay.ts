import type {
  LoggingLevel,
  ServerContext,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/server";
import { answerSchemaOf, clientQuestions } from "../client-questions";
import type { CallRelay } from "../endpoint";
import type { GatewaySession } from "./session-store";

const LEVELS: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

// A person answers an elicitation, and sampling may wait on one: longer than the SDK's default of a minute.
export const ASK_CLIENT_TIMEOUT_MS = 10 * 60_000;

/** Whether a message at `level` passes the client's chosen level (none chosen: every message). */
export function atOrAbove(level: LoggingLevel, chosen: string | null | undefined): boolean {
  return !chosen || LEVELS.indexOf(level) >= LEVELS.indexOf(chosen as LoggingLevel);
}

/**
 * How an upstream server's messages about one call reach the session's client, on the call's own stream:
 * progress when the client asked for it, elicitation, sampling and its roots when it declared them (withdrawn when
 * either side cancels the call), log messages at or above its level.
 */
export function relayForRequest(
  session: GatewaySession | undefined,
  ctx: ServerContext,
): CallRelay | undefined {
  if (!session) return undefined;
  const capabilities = session.clientCapabilities;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  // Sent one after the other (each is stored before it is written), so they reach the client in order, and
  // before the call's answer.
  let sending = Promise.resolve();
  const notify = (notification: ServerNotification) => {
    sending = sending.then(() => ctx.mcpReq.notify(notification)).catch(() => {});
  };
  const ask = (signal: AbortSignal) => ({
    signal: AbortSignal.any([signal, ctx.mcpReq.signal]),
    timeout: ASK_CLIENT_TIMEOUT_MS,
  });
  return {
    sent: () => sending,
    progress:
      progressToken === undefined
        ? undefined
        : (progress) => notify({ method: "notifications/progress", params: { ...progress, progressToken } }),
    ...clientQuestions(capabilities, (method, params, signal) =>
      ctx.mcpReq.send({ method, params } as ServerRequest, answerSchemaOf(method), ask(signal)),
    ),
    log: (params) => {
      if (atOrAbove(params.level, session.logLevel)) notify({ method: "notifications/message", params });
    },
  };
}
