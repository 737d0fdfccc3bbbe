import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { cachePerDatabase } from "@/db/change-cache";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpGatewaySessions } from "@/db/schema";
import { type GatewayCaller, sessionOwnerOf } from "../caller";
import { pruneSessionEvents } from "./session-events";

/** A session stays open this long after its last use (the client re-initializes after that). */
const SESSION_IDLE_MS = 60 * 60_000;

export type GatewaySession = typeof mcpGatewaySessions.$inferSelect;

/**
 * The revision of the sessions that hold a 2026-07-28 call while its client answers a question (parked-calls.ts):
 * that revision has no sessions of its own, so these never get a stream or list changes.
 */
export const PARKING_REVISION = "2026-07-28";

const CHANNEL = "switchboard_gateway_sessions";

const sessionCache = cachePerDatabase<GatewaySession>({
  channel: CHANNEL,
  ttlMs: 60_000,
  maxEntries: 10_000,
  concerns: (session, payload) => session.id === payload,
});

/** Opens a session for the caller on one endpoint, and clears out sessions that expired and events kept too long. */
export async function openSession(
  db: Database,
  ctx: GatewayCaller,
  opening: { endpoint: string; protocolVersion: string; clientCapabilities: Record<string, unknown> },
): Promise<GatewaySession> {
  // 256 random bits: the id is not a credential (the key or token still is), but it must not be guessed across them.
  const id = randomBytes(32).toString("base64url");
  const [session] = await db
    .insert(mcpGatewaySessions)
    .values({
      id,
      organizationId: ctx.orgId,
      ...sessionOwnerOf(ctx),
      ...opening,
      expiresAt: new Date(Date.now() + SESSION_IDLE_MS),
    })
    .returning();
  await sweepExpired(db);
  return session as GatewaySession;
}

// Expired sessions and old events are swept at most once a minute per instance, not on every initialize: the
// events table is read by creation time only here, without an index of its own.
const SWEEP_EVERY_MS = 60_000;
const lastSweep = new WeakMap<Database, number>();

async function sweepExpired(db: Database): Promise<void> {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  await db.delete(mcpGatewaySessions).where(lt(mcpGatewaySessions.expiresAt, sql`now()`));
  await pruneSessionEvents(db);
}

/**
 * The caller's live session with this id on this endpoint, or undefined (unknown, expired, another key's or grant's,
 * or another endpoint's: the client is told to re-initialize). Its expiry is pushed back once half of it has passed.
 */
export async function findSession(
  db: Database,
  ctx: GatewayCaller,
  endpoint: string,
  id: string,
): Promise<GatewaySession | undefined> {
  const session = await sessionCache(db).load(id, async () => {
    const [row] = await db.select().from(mcpGatewaySessions).where(eq(mcpGatewaySessions.id, id));
    return row;
  });
  const owner = sessionOwnerOf(ctx);
  if (
    !session ||
    session.apiKeyId !== owner.apiKeyId ||
    session.oauthGrantId !== owner.oauthGrantId ||
    session.organizationId !== ctx.orgId
  )
    return undefined;
  if (session.endpoint !== endpoint) return undefined;
  const left = session.expiresAt.getTime() - Date.now();
  if (left <= 0) return undefined;
  if (left < SESSION_IDLE_MS / 2) {
    const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
    session.expiresAt = expiresAt;
    await db
      .update(mcpGatewaySessions)
      .set({ expiresAt })
      .where(and(eq(mcpGatewaySessions.id, id), eq(mcpGatewaySessions.organizationId, ctx.orgId)));
  }
  return session;
}

/** This session's row, in its organization. */
const rowOf = (session: GatewaySession) =>
  and(eq(mcpGatewaySessions.id, session.id), eq(mcpGatewaySessions.organizationId, session.organizationId));

/** Changes the session for every instance: written, and dropped from every instance's cache. */
async function updateSession(
  db: Database,
  session: GatewaySession,
  values: Partial<Pick<GatewaySession, "logLevel" | "subscriptions">>,
): Promise<void> {
  Object.assign(session, values);
  await db.update(mcpGatewaySessions).set(values).where(rowOf(session));
  await publishChange(db, CHANNEL, session.id);
}

/** Ends the session everywhere (its pending messages go with it). */
export async function endSession(db: Database, session: GatewaySession): Promise<void> {
  await db.delete(mcpGatewaySessions).where(rowOf(session));
  await publishChange(db, CHANNEL, session.id);
}

/** Keeps the client's chosen log level, for every instance. */
export function setSessionLogLevel(db: Database, session: GatewaySession, level: string): Promise<void> {
  return updateSession(db, session, { logLevel: level });
}

/** Adds or removes one resource subscription of the session. */
export function setSessionSubscription(
  db: Database,
  session: GatewaySession,
  uri: string,
  subscribed: boolean,
): Promise<void> {
  const others = session.subscriptions.filter((item) => item !== uri);
  return updateSession(db, session, { subscriptions: subscribed ? [...others, uri] : others });
}

/**
 * The caller's live parked calls on this endpoint whose capabilities carry `mark` (the tasks of 2025-11-25
 * clients, see session-tasks.ts), newest first.
 */
export async function parkedCallsMarked(
  db: Database,
  ctx: GatewayCaller,
  endpoint: string,
  mark: string,
): Promise<{ id: string; createdAt: Date }[]> {
  const owner = sessionOwnerOf(ctx);
  return db
    .select({ id: mcpGatewaySessions.id, createdAt: mcpGatewaySessions.createdAt })
    .from(mcpGatewaySessions)
    .where(
      and(
        eq(mcpGatewaySessions.organizationId, ctx.orgId),
        owner.apiKeyId
          ? eq(mcpGatewaySessions.apiKeyId, owner.apiKeyId)
          : isNull(mcpGatewaySessions.apiKeyId),
        owner.oauthGrantId
          ? eq(mcpGatewaySessions.oauthGrantId, owner.oauthGrantId)
          : isNull(mcpGatewaySessions.oauthGrantId),
        eq(mcpGatewaySessions.endpoint, endpoint),
        eq(mcpGatewaySessions.protocolVersion, PARKING_REVISION),
        gt(mcpGatewaySessions.expiresAt, sql`now()`),
        sql`${mcpGatewaySessions.clientCapabilities} ? ${mark}`,
      ),
    )
    .orderBy(desc(mcpGatewaySessions.createdAt), desc(mcpGatewaySessions.id));
}
