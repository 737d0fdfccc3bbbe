import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpGatewaySessions, mcpSessionEvents } from "@/db/schema";
import { logger } from "@/lib/logger";
import { publishListenEvent } from "./listen-events";
import { SESSION_EVENTS_CHANNEL, STANDALONE_STREAM } from "./session-events";
import { PARKING_REVISION } from "./session-store";

type ListKind = "tools" | "resources" | "prompts";

/**
 * Tells the organization's clients that lists changed: its open sessions on each session's own stream (every
 * gateway session, and the pass-through sessions of the integration concerned, when one is), and 2026-07-28
 * clients on their listen streams. Clients then list again.
 */
export async function announceListChanges(
  db: Database,
  orgId: string,
  kinds: ListKind[],
  integrationSlug?: string,
): Promise<void> {
  if (kinds.length === 0) return;
  await publishListenEvent(db, {
    org: orgId,
    lists: kinds,
    ...(integrationSlug ? { integration: integrationSlug } : {}),
  });
  try {
    const endpoints = integrationSlug ? ["gateway", `integrations/${integrationSlug}`] : ["gateway"];
    const sessions = await db
      .select({ id: mcpGatewaySessions.id })
      .from(mcpGatewaySessions)
      .where(
        and(
          eq(mcpGatewaySessions.organizationId, orgId),
          inArray(mcpGatewaySessions.endpoint, endpoints),
          sql`${mcpGatewaySessions.expiresAt} > now()`,
          // A parked call's session has no stream of its own to tell.
          ne(mcpGatewaySessions.protocolVersion, PARKING_REVISION),
        ),
      );
    if (sessions.length === 0) return;
    await db.insert(mcpSessionEvents).values(
      sessions.flatMap((session) =>
        kinds.map((kind) => ({
          sessionId: session.id,
          streamId: STANDALONE_STREAM,
          message: { jsonrpc: "2.0", method: `notifications/${kind}/list_changed` },
        })),
      ),
    );
    for (const session of sessions) await publishChange(db, SESSION_EVENTS_CHANNEL, session.id);
  } catch (error) {
    // Clients still see the change when they next list; nothing else depends on this.
    logger.warn("list change not announced", { orgId, err: error });
  }
}
