import { eq, sql } from "drizzle-orm";
import { cachePerDatabase } from "@/db/change-cache";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import { buffering, drained, perDatabase, serialFlusher } from "@/db/write-behind";
import type { RequestContext } from "@/lib/auth/context";
import { logger, redact } from "@/lib/logger";
import { isUuid } from "@/lib/validation";

export interface UsageEntry {
  /** Where the call came from: "runner" is an integration page's tool runner, "test-run" the capability editor. */
  surface: "chat" | "rest" | "gateway" | "capability" | "runner" | "test-run";
  tool: string;
  source?: "builtin" | "integration" | "capability";
  integrationId?: string;
  capabilityId?: string;
  outcome: "ok" | "tool_error" | "failed";
  latencyMs: number;
  errorCode?: string;
  /** Kept only when the organization turned payload recording on, and then with secrets redacted. */
  arguments?: unknown;
  result?: unknown;
}

const MAX_PAYLOAD_CHARS = 10_000;

// Operator and system contexts carry names, not ids; those calls are recorded without a who.
const uuidOrNull = (value: string | undefined) => (value && isUuid(value) ? value : null);

/** Tools often return JSON as text: such text is parsed, so its secrets are redacted like any other field. */
function expandJsonText(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (typeof value === "string" && /^\s*[{[]/.test(value)) {
    try {
      return expandJsonText(JSON.parse(value), depth + 1);
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((item) => expandJsonText(item, depth + 1));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandJsonText(item, depth + 1)]),
    );
  return value;
}

/** A payload as stored: secrets redacted by the logger's rules, and cut when large. */
export function payloadForRecord(value: unknown): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(redact(expandJsonText(value)));
  if (json === undefined) return null;
  return json.length <= MAX_PAYLOAD_CHARS
    ? json
    : JSON.stringify({ truncated: true, preview: json.slice(0, MAX_PAYLOAD_CHARS) });
}

/** One call waiting to be written, in the columns of usage_records (payloads already scrubbed, or null). */
interface QueuedUsage {
  n: number;
  organization_id: string;
  occurred_at: string;
  user_id: string | null;
  api_key_id: string | null;
  oauth_client_id: string | null;
  surface: UsageEntry["surface"];
  tool: string;
  source: string | null;
  integration_id: string | null;
  capability_id: string | null;
  outcome: UsageEntry["outcome"];
  latency_ms: number;
  error_code: string | null;
  arguments: string | null;
  result: string | null;
}

// Written about twice a second, or at once when this many are waiting; a crash loses at most what waits.
const FLUSH_INTERVAL_MS = 500;
const BATCH_ROWS = 500;
// While the database is away, calls wait in memory up to this many; later ones are logged and dropped.
const MAX_QUEUED = 20_000;

/** Whether the organization keeps payloads, kept until its setting changes (published on "switchboard_orgs"). */
const keepsPayloads = cachePerDatabase<{ orgId: string; keeps: boolean }>({
  channel: "switchboard_orgs",
  ttlMs: 60_000,
  maxEntries: 10_000,
  concerns: (policy, payload) => policy.orgId === payload,
});

async function readPayloadPolicy(db: Database, orgId: string) {
  const [row] = await db
    .select({ keeps: organizations.recordToolPayloads })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row && { orgId, keeps: row.keeps };
}

/**
 * The calls of one database waiting to be written, in one multi-row statement each time. Flushes run one after
 * another, so a flush that was asked for has written everything queued before it was asked.
 */
class UsageQueue {
  private rows: QueuedUsage[] = [];
  private counter = 0;
  private readonly flusher = serialFlusher(
    () => this.write(),
    FLUSH_INTERVAL_MS,
    (error: unknown) => logger.warn("usage not recorded", { err: error }),
  );
  readonly flush = this.flusher.flush;
  private readonly schedule = this.flusher.schedule;
  /** The last write failed for want of a database: wait for the timer rather than trying on every call. */
  private failing = false;
  private droppedSinceWarning = 0;

  constructor(private readonly db: Database) {}

  push(row: Omit<QueuedUsage, "n">) {
    if (this.rows.length >= MAX_QUEUED) {
      if (this.droppedSinceWarning++ === 0)
        logger.warn("usage not recorded: too many calls waiting for the database", { waiting: MAX_QUEUED });
      return;
    }
    this.rows.push({ ...row, n: this.counter++ });
    buffering(this.db, this.flush);
    if (this.rows.length >= BATCH_ROWS && !this.failing) void this.flush();
    else this.schedule();
  }

  /** Writes what was queued when it started; calls queued meanwhile wait for the next flush. */
  private async write() {
    let remaining = this.rows.length;
    while (remaining > 0) {
      const batch = this.rows.slice(0, Math.min(BATCH_ROWS, remaining));
      try {
        await insertUsage(this.db, batch);
        this.failing = false;
      } catch (error) {
        if (!isDataError(error)) {
          // The database is away: everything waits for the next flush.
          logger.warn("usage not recorded yet; trying again", { waiting: this.rows.length, err: error });
          this.failing = true;
          this.schedule();
          return;
        }
        // A row the database refuses must not hold up the others: each is tried alone, and a refused one dropped.
        for (const row of batch)
          await insertUsage(this.db, [row]).catch((rowError: unknown) =>
            logger.warn("usage not recorded", { tool: row.tool, orgId: row.organization_id, err: rowError }),
          );
      }
      this.rows.splice(0, batch.length);
      remaining -= batch.length;
    }
    if (this.rows.length > 0) {
      this.schedule();
      return;
    }
    this.droppedSinceWarning = 0;
    drained(this.db, this.flush);
  }
}

const queueOf = perDatabase("usageQueue", (db) => new UsageQueue(db));

// SQLSTATE classes 22 (data exception) and 23 (integrity constraint): the rows, not the connection, are at fault.
function isDataError(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^2[23]/.test(code)) return true;
  }
  return false;
}

/**
 * One statement for the batch. Rows of an organization deleted meanwhile are skipped, and payloads are kept only
 * if the organization keeps them at the moment of writing.
 */
function insertUsage(db: Database, rows: QueuedUsage[]) {
  return db.execute(sql`
    insert into usage_records (organization_id, occurred_at, user_id, api_key_id, oauth_client_id, surface, tool,
                               source, integration_id, capability_id, outcome, latency_ms, error_code, arguments,
                               result)
    select o.id, r.occurred_at, r.user_id, r.api_key_id, r.oauth_client_id, r.surface, r.tool, r.source,
           r.integration_id, r.capability_id, r.outcome, r.latency_ms, r.error_code,
           case when o.record_tool_payloads then r.arguments::jsonb end,
           case when o.record_tool_payloads then r.result::jsonb end
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
           n integer, organization_id uuid, occurred_at timestamptz, user_id uuid, api_key_id uuid,
           oauth_client_id uuid, surface text,
           tool text, source text, integration_id uuid, capability_id uuid, outcome text, latency_ms integer,
           error_code text, arguments text, result text)
    join organizations o on o.id = r.organization_id
    order by r.n`);
}

/**
 * Records one tool call for the dashboard: queued in memory and written with others in one statement within
 * half a second (flushUsage writes at once). Payloads are scrubbed only when the organization keeps them. A
 * failure to record is logged and never fails the call.
 */
export async function recordUsage(db: Database, ctx: RequestContext, entry: UsageEntry): Promise<void> {
  if (!isUuid(ctx.orgId)) {
    logger.warn("usage not recorded: no organization", { tool: entry.tool });
    return;
  }
  const policies = keepsPayloads(db);
  const policy = policies.get(ctx.orgId);
  if (!policy) policies.prefetch(ctx.orgId, () => readPayloadPolicy(db, ctx.orgId));
  // Not known yet: scrubbed as if kept, and the write keeps them only if the organization does.
  const keep = policy?.keeps ?? true;
  queueOf(db).push({
    organization_id: ctx.orgId,
    occurred_at: new Date().toISOString(),
    user_id: ctx.userId ?? null,
    api_key_id: ctx.apiKeyId ?? null,
    oauth_client_id: ctx.oauthClientId ?? null,
    surface: entry.surface,
    tool: entry.tool,
    source: entry.source ?? null,
    integration_id: uuidOrNull(entry.integrationId),
    capability_id: uuidOrNull(entry.capabilityId),
    outcome: entry.outcome,
    latency_ms: Math.min(2_147_483_647, Math.max(0, Math.round(entry.latencyMs))),
    error_code: entry.errorCode ?? null,
    arguments: keep ? payloadForRecord(entry.arguments) : null,
    result: keep ? payloadForRecord(entry.result) : null,
  });
}

/**
 * Writes the calls this process has queued for the database; resolves once they are in it (or, the database
 * being unreachable, once that is logged: they then wait for the next flush).
 */
export function flushUsage(db: Database): Promise<void> {
  return queueOf(db).flush();
}
