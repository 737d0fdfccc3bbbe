import { createMcpHandler, type ServerContext } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { logger } from "@/lib/logger";
import type { CallRelay, GatewayCall, McpEndpoint } from "./endpoint";
import { envelopeOf } from "./modern-envelope";
import { requestServer } from "./request-server";
import { atOrAbove } from "./sessions/request-relay";

/**
 * What an upstream server says during a 2026-07-28 call, on the call's own response (which becomes an event
 * stream when there is something to say before the answer): progress when the request asked for it (a progress
 * token), log messages at or above the level the request names (none named: none sent, as the revision says).
 */
function modernRelay(call: ServerContext): CallRelay {
  const progressToken = call.mcpReq._meta?.progressToken;
  const level = envelopeOf(call).logLevel;
  let sending = Promise.resolve();
  const notify = (notification: Parameters<ServerContext["mcpReq"]["notify"]>[0]) => {
    sending = sending.then(() => call.mcpReq.notify(notification)).catch(() => {});
  };
  return {
    sent: () => sending,
    progress:
      progressToken === undefined
        ? undefined
        : (progress) => notify({ method: "notifications/progress", params: { ...progress, progressToken } }),
    log:
      level === undefined
        ? undefined
        : (params) => {
            if (atOrAbove(params.level, level)) notify({ method: "notifications/message", params });
          },
  };
}

/** How a tools/call of a 2026-07-28 request runs. */
const modernCall = (call: ServerContext): GatewayCall => ({
  signal: call.mcpReq.signal,
  relay: modernRelay(call),
});

/**
 * One 2026-07-28 request (stateless: no session, its protocol version and the client's capabilities in its
 * `_meta`), answered by the SDK's handler for that revision with a server made for this caller alone: the SDK
 * checks the routing headers and the envelope, answers server/discover, stamps result types, cache hints and the
 * server's identity, and refuses what the revision does not have.
 */
export function serveModern(
  _db: Database,
  request: Request,
  _ctx: ApiKeyContext,
  _endpointName: string,
  endpoint: McpEndpoint,
  body: unknown,
): Promise<Response> {
  const handler = createMcpHandler(() => requestServer(endpoint, { callOf: modernCall }), {
    legacy: "reject",
    onerror: (error) => logger.debug("2026-07-28 request not served", { err: error }),
  });
  return handler.fetch(request, { parsedBody: body });
}
