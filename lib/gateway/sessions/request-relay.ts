import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { DownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
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
const ASK_CLIENT_TIMEOUT_MS = 10 * 60_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * How an upstream server's messages about one call reach the session's client, on the call's own stream:
 * progress when the client asked for it, elicitation and sampling when it declared them (withdrawn when either
 * side cancels the call), log messages at or above its level.
 */
export function relayForRequest(
  session: GatewaySession | undefined,
  extra: Extra,
): (DownstreamRelay & { sent(): Promise<void> }) | undefined {
  if (!session) return undefined;
  const capabilities = session.clientCapabilities as {
    elicitation?: { form?: object; url?: object };
    sampling?: object;
  };
  const progressToken = extra._meta?.progressToken;
  // Sent one after the other (each is stored before it is written), so they reach the client in order, and
  // before the call's answer.
  let sending = Promise.resolve();
  const notify = (notification: ServerNotification) => {
    sending = sending.then(() => extra.sendNotification(notification)).catch(() => {});
  };
  const elicitation = capabilities.elicitation;
  return {
    sent: () => sending,
    progress:
      progressToken === undefined
        ? undefined
        : (progress) => notify({ method: "notifications/progress", params: { ...progress, progressToken } }),
    elicit: elicitation
      ? (params, signal) => {
          // A client that declared elicitation without modes takes forms only.
          const mode = params.mode ?? "form";
          const modes = elicitation.form || elicitation.url ? elicitation : { form: {} };
          if (!(mode in modes)) throw new Error(`The client does not take ${mode} elicitation requests.`);
          return extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema, {
            signal: AbortSignal.any([signal, extra.signal]),
            timeout: ASK_CLIENT_TIMEOUT_MS,
          });
        }
      : undefined,
    createMessage: capabilities.sampling
      ? (params, signal) =>
          extra.sendRequest({ method: "sampling/createMessage", params }, CreateMessageResultSchema, {
            signal: AbortSignal.any([signal, extra.signal]),
            timeout: ASK_CLIENT_TIMEOUT_MS,
          })
      : undefined,
    log: (params) => {
      const level = session.logLevel as LoggingLevel | null;
      if (level && LEVELS.indexOf(params.level) < LEVELS.indexOf(level)) return;
      notify({ method: "notifications/message", params });
    },
  };
}
