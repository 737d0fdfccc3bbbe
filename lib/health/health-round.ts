import { desc, eq, max, sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "@/db/client";
import { integrationHealthChecks } from "@/db/schema";
import { systemContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { listEnabledIntegrations, type McpIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";

const log = logger.child({ component: "health" });
// Any number works as long as every instance uses the same one.
const LOCK_KEY = 0x5b0a4d;
const CONCURRENCY = 8;
let runningHere = false;

export type HealthStatus = "up" | "degraded" | "down";

/** Answering, but slow: more than half its timeout, or over 5 seconds. */
export function healthStatus(ok: boolean, latencyMs: number, timeoutMs: number): HealthStatus {
  if (!ok) return "down";
  return latencyMs > Math.min(5000, timeoutMs / 2) ? "degraded" : "up";
}

async function checkOne(db: Database, integration: McpIntegration) {
  // The check acts for the integration's own organization, like any other caller.
  const ctx = systemContext("health-check", integration.organizationId);
  const started = performance.now();
  let error: string | null = null;
  try {
    // On a connection of its own: a pooled session the server forgot must not pass for the server being down, nor
    // the check keep an idle session alive.
    await mcpUseCases(db).discover(ctx, { integrationId: integration.id }, { fresh: true });
  } catch (failure) {
    error = failure instanceof AppError ? failure.message : "Unexpected error";
  }
  const latencyMs = Math.round(performance.now() - started);
  return {
    integrationId: integration.id,
    organizationId: integration.organizationId,
    status: healthStatus(error === null, latencyMs, integration.timeoutMs),
    latencyMs,
    error,
  };
}

async function round(db: Database, intervalMs: number, now: Date) {
  const [latest] = await db
    .select({ at: max(integrationHealthChecks.checkedAt) })
    .from(integrationHealthChecks);
  // Another instance checked within this interval: once per interval across all of them.
  if (latest?.at && now.getTime() - latest.at.getTime() < intervalMs * 0.9) return { ran: false, checked: 0 };
  const enabled = await listEnabledIntegrations(db);
  // An integration each user connects to with their own account has no connection of its own to check.
  const integrations = enabled.filter((row) => row.authType !== "oauth" || row.oauth?.credentials !== "user");
  const results = [];
  for (let i = 0; i < integrations.length; i += CONCURRENCY) {
    results.push(
      ...(await Promise.all(integrations.slice(i, i + CONCURRENCY).map((row) => checkOne(db, row)))),
    );
  }
  if (results.length > 0)
    await db.insert(integrationHealthChecks).values(results.map((r) => ({ ...r, checkedAt: now })));
  log.info("health round", {
    checked: results.length,
    down: results.filter((r) => r.status === "down").length,
    degraded: results.filter((r) => r.status === "degraded").length,
  });
  return { ran: true, checked: results.length };
}

/**
 * Rediscovers every enabled integration and records its status, at most once per interval across all
 * instances: on PostgreSQL under an advisory lock, on the embedded database (one instance) in process.
 */
export async function runHealthRound(
  handle: DatabaseHandle,
  options: { intervalMs: number; now?: Date },
): Promise<{ ran: boolean; checked: number }> {
  const now = options.now ?? new Date();
  if (handle.kind === "pglite") {
    if (runningHere) return { ran: false, checked: 0 };
    runningHere = true;
    try {
      return await round(handle.db, options.intervalMs, now);
    } finally {
      runningHere = false;
    }
  }
  return handle.db.transaction(async (tx) => {
    // postgres.js answers raw SQL with an array of rows.
    const [lock] = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`,
    )) as unknown as {
      locked: boolean;
    }[];
    if (!lock?.locked) return { ran: false, checked: 0 };
    // Checks write through the pool; the transaction only holds the lock until the round is done.
    return round(handle.db, options.intervalMs, now);
  });
}

/** The latest checks of an integration, newest first: its status history. */
export function healthHistory(db: Database, integrationId: string, limit = 20) {
  return db
    .select()
    .from(integrationHealthChecks)
    .where(eq(integrationHealthChecks.integrationId, integrationId))
    .orderBy(desc(integrationHealthChecks.checkedAt))
    .limit(limit);
}

/** The latest checks of each of the organization's integrations, newest first, for status strips. */
export async function recentHealthByIntegration(db: Database, orgId: string, perIntegration = 12) {
  const ranked = db
    .select({
      integrationId: integrationHealthChecks.integrationId,
      checkedAt: integrationHealthChecks.checkedAt,
      status: integrationHealthChecks.status,
      latencyMs: integrationHealthChecks.latencyMs,
      error: integrationHealthChecks.error,
      rank: sql<number>`row_number() over (partition by ${integrationHealthChecks.integrationId} order by ${integrationHealthChecks.checkedAt} desc)`.as(
        "rank",
      ),
    })
    .from(integrationHealthChecks)
    .where(eq(integrationHealthChecks.organizationId, orgId))
    .as("ranked");
  const rows = await db.select().from(ranked).where(sql`${ranked.rank} <= ${perIntegration}`);
  const byIntegration = new Map<string, typeof rows>();
  for (const row of rows)
    byIntegration.set(row.integrationId, [...(byIntegration.get(row.integrationId) ?? []), row]);
  for (const list of byIntegration.values())
    list.sort((x, y) => y.checkedAt.getTime() - x.checkedAt.getTime());
  return byIntegration;
}
