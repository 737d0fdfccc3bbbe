import { and, eq, or, sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpGatewaySessions, mcpSessionEvents } from "@/db/schema";
import { logger } from "@/lib/logger";
import { gatewayResourceUri } from "../resource-names";
import { publishListenEvent } from "./listen-events";
import { SESSION_EVENTS_CHANNEL, STANDALONE_STREAM } from "./session-events";

/**
 * Tells the sessions subscribed to an integration's resource that it changed, each under the URI it knows: the
 * gateway's (switchboard://<slug>/…) or, passed through, the server's own; and 2026-07-28 clients listening for
 * it.
 */
export async function announceResourceUpdated(
  db: Database,
  integration: { organizationId: string; slug: string },
  uri: string,
): Promise<void> {
  const gatewayUri = gatewayResourceUri(integration.slug, uri);
  await publishListenEvent(db, {
    org: integration.organizationId,
    integration: integration.slug,
    resource: uri,
  });
  const subscribedTo = (known: string) =>
    sql`${mcpGatewaySessions.subscriptions} @> ${JSON.stringify([known])}::jsonb`;
  try {
    const sessions = await db
      .select({ id: mcpGatewaySessions.id, endpoint: mcpGatewaySessions.endpoint })
      .from(mcpGatewaySessions)
      .where(
        and(
          eq(mcpGatewaySessions.organizationId, integration.organizationId),
          sql`${mcpGatewaySessions.expiresAt} > now()`,
          or(
            and(eq(mcpGatewaySessions.endpoint, "gateway"), subscribedTo(gatewayUri)),
            and(eq(mcpGatewaySessions.endpoint, `integrations/${integration.slug}`), subscribedTo(uri)),
          ),
        ),
      );
    if (sessions.length === 0) return;
    await db.insert(mcpSessionEvents).values(
      sessions.map((session) => ({
        sessionId: session.id,
        streamId: STANDALONE_STREAM,
        message: {
          jsonrpc: "2.0",
          method: "notifications/resources/updated",
          params: { uri: session.endpoint === "gateway" ? gatewayUri : uri },
        },
      })),
    );
    for (const session of sessions) await publishChange(db, SESSION_EVENTS_CHANNEL, session.id);
  } catch (error) {
    logger.warn("resource update not announced", { err: error });
  }
}
