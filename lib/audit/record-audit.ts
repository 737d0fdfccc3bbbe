import type { Database } from "@/db/client";
import { auditEvents } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";

export interface AuditEntry {
  /** `<kind>.<verb>`, such as `agent.update`. */
  action: string;
  targetType: string;
  targetId?: string;
  targetName?: string;
  /** Plain fields only: never pass a secret here. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Names of secret fields that changed: recorded as "changed", never with a value. */
  changedSecrets?: string[];
}

/** The named fields of a row, for an audit entry: a list of what may be shown, so nothing else slips in. */
export function auditPick<T extends object, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;
}

/** The fields that differ between two versions, so an entry shows what changed and nothing else. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}

/** Writes who changed what in the context's organization; a failure is logged and never undoes the change. */
export async function recordAudit(db: Database, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  const secrets = Object.fromEntries((entry.changedSecrets ?? []).map((name) => [name, "changed"]));
  try {
    await db.insert(auditEvents).values({
      organizationId: ctx.orgId,
      actorUserId: ctx.userId ?? null,
      // A system job (the operator's CLI, say) has neither: recorded with no actor rather than not at all.
      actorApiKeyId: ctx.apiKeyId ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      targetName: entry.targetName ?? null,
      before: entry.before ?? null,
      after: entry.after || entry.changedSecrets?.length ? { ...entry.after, ...secrets } : null,
    });
  } catch (error) {
    logger.error("audit event not recorded", { action: entry.action, orgId: ctx.orgId, err: error });
  }
}
