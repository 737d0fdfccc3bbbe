import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import type { GatewayCaller } from "../caller";
import { invalidParams, upstreamError } from "../mcp-errors";
import { type GatewaySession, setSessionSubscription } from "./session-store";

const needsSession = () =>
  new ProtocolError(
    ProtocolErrorCode.InvalidRequest,
    "Subscriptions need a session: initialize, then send the Mcp-Session-Id header you were given.",
  );

/**
 * resources/subscribe and unsubscribe for a session: the integration's server is asked to report changes to the
 * resource (`resolve` says which integration and under which URI), and the session keeps the subscription, so
 * its updates reach the client's GET stream from any instance.
 */
export function serveSubscriptions(
  server: Server,
  db: Database,
  ctx: GatewayCaller,
  session: GatewaySession | undefined,
  resolve: (uri: string) => Promise<{ integrationId: string; uri: string } | undefined>,
) {
  server.setRequestHandler("resources/subscribe", async (request) => {
    if (!session) throw needsSession();
    const target = await resolve(request.params.uri);
    if (!target) throw invalidParams(`Resource not found: ${request.params.uri}`);
    await mcpUseCases(db)
      .subscribeResource(ctx, target)
      .catch((error: unknown) => {
        throw upstreamError(error);
      });
    await setSessionSubscription(db, session, request.params.uri, true);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request) => {
    if (!session) throw needsSession();
    await setSessionSubscription(db, session, request.params.uri, false);
    return {};
  });
}
