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
import { type OutcomeFigures, outcomeCounts, percentile, toolKey } from "./call-outcomes";
import { flushUsage } from "./record-usage";

export interface DashboardRange {
  from: Date;
  to: Date;
}

const p50 = percentile(0.5);
const p95 = percentile(0.95);

/** The outcome counts under aliases, for a subquery that is joined afterwards. */
const aliasedOutcomes = () => {
  const counts = outcomeCounts();
  return {
    serverErrors: counts.serverErrors.as("server_errors"),
    refused: counts.refused.as("refused"),
    toolErrors: counts.toolErrors.as("tool_errors"),
  };
};

function rangeFilter(orgId: string, range: DashboardRange) {
  return and(
    eq(usageRecords.organizationId, orgId),
    gte(usageRecords.occurredAt, range.from),
    lt(usageRecords.occurredAt, range.to),
  );
}

/** The busiest rows a dashboard panel lists; a page of thousands of rows would cost more than it tells. */
export const PANEL_ROWS = 10;

/** Hours for a range of a day or two, days for longer ones. */
export function bucketUnit(range: DashboardRange): "hour" | "day" {
  return range.to.getTime() - range.from.getTime() <= 2 * 86_400_000 ? "hour" : "day";
}

/**
 * A call's bucket as UTC text: `2026-06-30` for a day, `2026-06-30T14` for an hour. Written into the statement
 * (two constants), so its GROUP BY and select are the same expression.
 */
const bucketOf = (unit: "hour" | "day") =>
  sql<string>`to_char(date_trunc('${sql.raw(unit)}', ${usageRecords.occurredAt} at time zone 'UTC'), '${sql.raw(unit === "hour" ? 'YYYY-MM-DD"T"HH24' : "YYYY-MM-DD")}')`;

/** Each query of the dashboard, by name, so the benchmark can time them one by one. */
export const dashboardQueries = {
  totals: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({
        calls: count(),
        ...outcomeCounts(),
        p50,
        p95,
        activeUsers: countDistinct(usageRecords.userId),
        apiKeys: countDistinct(usageRecords.apiKeyId),
      })
      .from(usageRecords)
      .where(rangeFilter(orgId, range)),
  buckets: (db: Database, orgId: string, range: DashboardRange) => {
    const bucket = bucketOf(bucketUnit(range));
    return db
      .select({ bucket, calls: count(), ...outcomeCounts() })
      .from(usageRecords)
      .where(rangeFilter(orgId, range))
      .groupBy(bucket)
      .orderBy(bucket);
  },
  // One row per tool, whatever its calls were recorded with; names that exist nowhere share one row (null).
  tools: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({
        tool: toolKey,
        source: sql<string | null>`max(${usageRecords.source})`,
        calls: count(),
        ...outcomeCounts(),
        p50,
        p95,
      })
      .from(usageRecords)
      .where(rangeFilter(orgId, range))
      .groupBy(toolKey)
      .orderBy(desc(count()))
      .limit(200),
  integrations: (db: Database, orgId: string, range: DashboardRange) => {
    // Calls are counted per integration first, then joined to the integrations: a join of every call would cost
    // more than the counting.
    const byIntegration = db
      .select({
        integrationId: usageRecords.integrationId,
        calls: count().as("calls"),
        ...aliasedOutcomes(),
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
        serverErrors: orZero(byIntegration.serverErrors),
        refused: orZero(byIntegration.refused),
        toolErrors: orZero(byIntegration.toolErrors),
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
      .select({ apiKeyId: usageRecords.apiKeyId, calls: count().as("calls"), ...aliasedOutcomes() })
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
        serverErrors: byKey.serverErrors,
        refused: byKey.refused,
        toolErrors: byKey.toolErrors,
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
        ...aliasedOutcomes(),
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
        serverErrors: byClient.serverErrors,
        refused: byClient.refused,
        toolErrors: byClient.toolErrors,
        people: byClient.people,
      })
      .from(byClient)
      .leftJoin(oauthClients, eq(oauthClients.id, byClient.oauthClientId))
      .orderBy(desc(byClient.calls));
  },
  // Every capability call, a test run of one not saved yet included: the tool panels count those too.
  capabilities: (db: Database, orgId: string, range: DashboardRange) =>
    db
      .select({
        tool: usageRecords.tool,
        calls: count(),
        ...outcomeCounts(),
        p50,
      })
      .from(usageRecords)
      .where(and(rangeFilter(orgId, range), eq(usageRecords.source, "capability")))
      .groupBy(usageRecords.tool)
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
    buckets,
    tools,
    integrations,
    keys,
    clients,
    ownCapabilities,
    conversationCount,
    capabilityCount,
  ] = await Promise.all([
    q.totals(db, orgId, range),
    q.buckets(db, orgId, range),
    q.tools(db, orgId, range),
    q.integrations(db, orgId, range),
    q.apiKeys(db, orgId, range),
    q.oauthClients(db, orgId, range),
    q.capabilities(db, orgId, range),
    q.conversations(db, orgId, range),
    q.capabilityCount(db, orgId),
  ]);
  const total = totals[0] ?? {
    calls: 0,
    serverErrors: 0,
    refused: 0,
    toolErrors: 0,
    p50: 0,
    p95: 0,
    activeUsers: 0,
    apiKeys: 0,
  };
  const failures = (row: OutcomeFigures) => row.serverErrors + row.toolErrors;
  return {
    totals: { ...total, conversations: conversationCount[0]?.conversations ?? 0 },
    unit: bucketUnit(range),
    buckets: fillBuckets(buckets, range),
    topTools: tools.slice(0, PANEL_ROWS),
    // Failing: the server failed the call or the tool answered with an error; refusals are the callers'.
    failingTools: tools
      .filter((t) => failures(t) > 0)
      .sort((x, y) => failures(y) - failures(x))
      .slice(0, PANEL_ROWS),
    tools,
    integrations,
    apiKeys: keys,
    oauthClients: clients,
    capabilities: ownCapabilities,
    capabilityCount: capabilityCount[0]?.n ?? 0,
  };
}

export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;

export type Bucket = { bucket: string } & OutcomeFigures;

/** Every bucket of the range, with zeros where nothing happened, so a chart's axis has no gaps. */
function fillBuckets(rows: Bucket[], range: DashboardRange): Bucket[] {
  const unit = bucketUnit(range);
  const byKey = new Map(rows.map((row) => [row.bucket, row]));
  const buckets: Bucket[] = [];
  const from = range.from;
  const cursor = new Date(
    Date.UTC(
      from.getUTCFullYear(),
      from.getUTCMonth(),
      from.getUTCDate(),
      unit === "hour" ? from.getUTCHours() : 0,
    ),
  );
  while (cursor < range.to) {
    const key = unit === "hour" ? cursor.toISOString().slice(0, 13) : cursor.toISOString().slice(0, 10);
    buckets.push(byKey.get(key) ?? { bucket: key, calls: 0, serverErrors: 0, refused: 0, toolErrors: 0 });
    if (unit === "hour") cursor.setUTCHours(cursor.getUTCHours() + 1);
    else cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return buckets;
}

/** The dashboard's ranges, by their query value. */
export const RANGES = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 } as const;
export type RangeKey = keyof typeof RANGES;

/** Whether a value from a URL names one of the ranges: an own key only, so `toString` or `__proto__` never do. */
export function isRangeKey(value: unknown): value is RangeKey {
  return typeof value === "string" && Object.hasOwn(RANGES, value);
}

/** The range shown first: today's activity, hour by hour. */
export const DEFAULT_RANGE: RangeKey = "24h";

/** The range a query value names, or the default for anything else (absent, repeated, unknown). */
export function rangeOf(key: unknown, now = new Date()): { key: RangeKey; range: DashboardRange } {
  const chosen: RangeKey = isRangeKey(key) ? key : DEFAULT_RANGE;
  return { key: chosen, range: { from: new Date(now.getTime() - RANGES[chosen] * 86_400_000), to: now } };
}
