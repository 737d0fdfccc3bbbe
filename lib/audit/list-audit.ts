import { and, desc, eq, gte, like, lt } from "drizzle-orm";
import type { Database } from "@/db/client";
import { apiKeys, auditEvents, users } from "@/db/schema";
import type { DashboardRange } from "@/lib/usage/dashboard";

export const AUDIT_KINDS = [
  "integration",
  "api_key",
  "agent",
  "capability",
  "member",
  "invitation",
  "oauth_grant",
  "knowledge",
  "settings",
] as const;

/** The organization's audit entries in a range, newest first, optionally of one kind, with who made them. */
export function listAuditEvents(
  db: Database,
  orgId: string,
  options: { range: DashboardRange; kind?: string; limit?: number },
) {
  const kind = AUDIT_KINDS.find((k) => k === options.kind);
  return db
    .select({
      id: auditEvents.id,
      occurredAt: auditEvents.occurredAt,
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetName: auditEvents.targetName,
      before: auditEvents.before,
      after: auditEvents.after,
      actorEmail: users.email,
      actorKey: apiKeys.name,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .leftJoin(apiKeys, eq(apiKeys.id, auditEvents.actorApiKeyId))
    .where(
      and(
        eq(auditEvents.organizationId, orgId),
        gte(auditEvents.occurredAt, options.range.from),
        lt(auditEvents.occurredAt, options.range.to),
        kind ? like(auditEvents.action, `${kind}.%`) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(options.limit ?? 200);
}

export type AuditRow = Awaited<ReturnType<typeof listAuditEvents>>[number];
