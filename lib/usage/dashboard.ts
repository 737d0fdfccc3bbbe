import { and, count, countDistinct, desc, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import {
  apiKeys,
  capabilities,
  conversations,
  mcpIntegrations,
  oauthClients,
  usageRecords,
} from "@/db/schema";
import { flushUsage } from "./record-usage";

export interface DashboardRange {
  from: Date;
  to: Date;
}

const errors = sql<number>`count(*) filter (where ${usageRecords.outcome} <> 'ok')`.mapWith(Number);
const p50 =
  sql<number>`coalesce(percentile_cont(0.5) within group (order by ${usageRecords.latencyMs}), 0)`.mapWith(
    Number,
  );
const p95 =
  sql<number>`coalesce(percentile_cont(0.95) within group (order by ${usageRecords.latencyMs}), 0)`.mapWith(
    Number,
  );

function rangeFilter(orgId: string, range: DashboardRange) {
  return and(
    eq(usageRecords.organizationId, orgId),
    gte(usageRecords.occurredAt, range.from),
    lt(usageRecords.occurredAt, range.to),
  );
}

/** The busiest rows a dashboard panel lists; a page of thousands of rows would cost more than it tells. */
export const PANEL_ROWS = 10;

const day = sql<string>`to_char(date_trunc('day', ${usageRecords.occurredAt} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** Each query of the dashboard, by name, so the benchmark can time them one by one. */
export const dashboardQueries = {
  totals: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({
        calls: count(),
        errors,
        p50,
        p95,
        activeUsers: countDistinct(usageRecords.userId),
        apiKeys: countDistinct(usageRecords.apiKeyId),
      })
      .from(usageRecords)
      .where(rangeFilter(orgId, range)),
  daily: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({ day, calls: count(), errors })
      .from(usageRecords)
      .where(rangeFilter(orgId, range))
      .groupBy(day)
      .orderBy(day),
  tools: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({ tool: usageRecords.tool, source: usageRecords.source, calls: count(), errors, p50, p95 })
      .from(usageRecords)
      .where(rangeFilter(orgId, range))
      .groupBy(usageRecords.tool, usageRecords.source)
      .orderBy(desc(count()))
      .limit(200),
  integrations: (db: Database, orgId: string, range: DashboardRange) => {
    // Calls are counted per integration first, then joined to the integrations: a join of every call would cost
    // more than the counting.
    const byIntegration = db
      .select({
        integrationId: usageRecords.integrationId,
        calls: count().as("calls"),
        errors: errors.as("errors"),
        p50: p50.as("p50"),
        p95: p95.as("p95"),
      })
      .from(usageRecords)
      .where(and(rangeFilter(orgId, range), isNotNull(usageRecords.integrationId)))
      .groupBy(usageRecords.integrationId)
      .as("by_integration");
    const orZero = (column: typeof byIntegration.calls) =>
      sql<number>`coalesce(${column}, 0)`.mapWith(Number);
    return db
      .select({
        integrationId: mcpIntegrations.id,
        name: mcpIntegrations.name,
        status: mcpIntegrations.status,
        lastError: mcpIntegrations.lastError,
        enabled: mcpIntegrations.enabled,
        state: mcpIntegrations.state,
        stateCause: mcpIntegrations.stateCause,
        stateChangedAt: mcpIntegrations.stateChangedAt,
        calls: orZero(byIntegration.calls),
        errors: orZero(byIntegration.errors),
        p50: orZero(byIntegration.p50),
        p95: orZero(byIntegration.p95),
      })
      .from(mcpIntegrations)
      .leftJoin(byIntegration, eq(byIntegration.integrationId, mcpIntegrations.id))
      .where(eq(mcpIntegrations.organizationId, orgId))
      .orderBy(mcpIntegrations.name);
  },
  apiKeys: (db: Database, orgId: string, range: DashboardRange) => {
    // The busiest keys first, then their names: only those few rows are joined.
    const byKey = db
      .select({ apiKeyId: usageRecords.apiKeyId, calls: count().as("calls"), errors: errors.as("errors") })
      .from(usageRecords)
      .where(and(rangeFilter(orgId, range), isNotNull(usageRecords.apiKeyId)))
      .groupBy(usageRecords.apiKeyId)
      .orderBy(desc(count()))
      .limit(PANEL_ROWS)
      .as("by_key");
    return db
      .select({
        apiKeyId: byKey.apiKeyId,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        calls: byKey.calls,
        errors: byKey.errors,
      })
      .from(byKey)
      .leftJoin(apiKeys, eq(apiKeys.id, byKey.apiKeyId))
      .orderBy(desc(byKey.calls));
  },
  oauthClients: (db: Database, orgId: string, range: DashboardRange) => {
    // Calls through clients people connected by signing in, the busiest first, then their names.
    const byClient = db
      .select({
        oauthClientId: usageRecords.oauthClientId,
        calls: count().as("calls"),
        errors: errors.as("errors"),
        people: countDistinct(usageRecords.userId).as("people"),
      })
      .from(usageRecords)
      .where(and(rangeFilter(orgId, range), isNotNull(usageRecords.oauthClientId)))
      .groupBy(usageRecords.oauthClientId)
      .orderBy(desc(count()))
      .limit(PANEL_ROWS)
      .as("by_client");
    return db
      .select({
        oauthClientId: byClient.oauthClientId,
        name: sql<string | null>`${oauthClients.metadata}->>'client_name'`,
        calls: byClient.calls,
        errors: byClient.errors,
        people: byClient.people,
      })
      .from(byClient)
      .leftJoin(oauthClients, eq(oauthClients.id, byClient.oauthClientId))
      .orderBy(desc(byClient.calls));
  },
  capabilities: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({
        capabilityId: usageRecords.capabilityId,
        tool: usageRecords.tool,
        calls: count(),
        errors,
        p50,
      })
      .from(usageRecords)
      .where(and(rangeFilter(orgId, range), isNotNull(usageRecords.capabilityId)))
      .groupBy(usageRecords.capabilityId, usageRecords.tool)
      .orderBy(desc(count()))
      .limit(PANEL_ROWS),
  conversations: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({ conversations: count() })
      .from(conversations)
      .where(
        and(
          eq(conversations.organizationId, orgId),
          gte(conversations.updatedAt, range.from),
          lt(conversations.updatedAt, range.to),
        ),
      ),
  capabilityCount: (db: Database, orgId: string) =>
    db.select({ n: count() }).from(capabilities).where(eq(capabilities.organizationId, orgId)),
};

/**
 * The organization's usage in a time range: totals, calls per day, tools, integrations, keys, connected apps,
 * capabilities.
 */
export async function dashboardData(db: Database, orgId: string, range: DashboardRange) {
  // The calls this instance has not written yet: someone who just called a tool sees it at once.
  await flushUsage(db);
  const q = dashboardQueries;
  const [
    totals,
    daily,
    tools,
    integrations,
    keys,
    clients,
    ownCapabilities,
    conversationCount,
    capabilityCount,
  ] = await Promise.all([
    q.totals(db, orgId, range),
    q.daily(db, orgId, range),
    q.tools(db, orgId, range),
    q.integrations(db, orgId, range),
    q.apiKeys(db, orgId, range),
    q.oauthClients(db, orgId, range),
    q.capabilities(db, orgId, range),
    q.conversations(db, orgId, range),
    q.capabilityCount(db, orgId),
  ]);
  const total = totals[0] ?? { calls: 0, errors: 0, p50: 0, p95: 0, activeUsers: 0, apiKeys: 0 };
  return {
    totals: { ...total, conversations: conversationCount[0]?.conversations ?? 0 },
    daily: fillDays(daily, range),
    topTools: tools.slice(0, 10),
    failingTools: tools
      .filter((t) => t.errors > 0)
      .sort((x, y) => y.errors - x.errors)
      .slice(0, 10),
    tools,
    integrations,
    apiKeys: keys,
    oauthClients: clients,
    capabilities: ownCapabilities,
    capabilityCount: capabilityCount[0]?.n ?? 0,
  };
}

export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;

/** Every day of the range, with zeros where nothing happened, so a chart's axis has no gaps. */
function fillDays(rows: { day: string; calls: number; errors: number }[], range: DashboardRange) {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: { day: string; calls: number; errors: number }[] = [];
  const cursor = new Date(
    Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), range.from.getUTCDate()),
  );
  while (cursor < range.to) {
    const key = cursor.toISOString().slice(0, 10);
    days.push(byDay.get(key) ?? { day: key, calls: 0, errors: 0 });
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}

/** The dashboard's ranges, by their query value. */
export const RANGES = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 } as const;
export type RangeKey = keyof typeof RANGES;

/** Whether a value from a URL names one of the ranges: an own key only, so `toString` or `__proto__` never do. */
export function isRangeKey(value: unknown): value is RangeKey {
  return typeof value === "string" && Object.hasOwn(RANGES, value);
}

/** The range a query value names, or the last 30 days for anything else (absent, repeated, unknown). */
export function rangeOf(key: unknown, now = new Date()): { key: RangeKey; range: DashboardRange } {
  const chosen: RangeKey = isRangeKey(key) ? key : "30d";
  return { key: chosen, range: { from: new Date(now.getTime() - RANGES[chosen] * 86_400_000), to: now } };
}
