import type { Database } from "@/db/client";
import { usageRecords } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";

export interface UsageEntry {
  surface: "chat" | "rest" | "gateway" | "capability";
  tool: string;
  source?: "builtin" | "integration" | "capability";
  integrationId?: string;
  capabilityId?: string;
  outcome: "ok" | "tool_error" | "failed";
  latencyMs: number;
  errorCode?: string;
}

/** Records one tool call for the dashboard; a failure to record is logged and never fails the call. */
export async function recordUsage(db: Database, ctx: RequestContext, entry: UsageEntry): Promise<void> {
  try {
    await db.insert(usageRecords).values({
      organizationId: ctx.orgId,
      userId: ctx.userId ?? null,
      apiKeyId: ctx.apiKeyId ?? null,
      surface: entry.surface,
      tool: entry.tool,
      source: entry.source ?? null,
      integrationId: entry.integrationId ?? null,
      capabilityId: entry.capabilityId ?? null,
      outcome: entry.outcome,
      latencyMs: Math.max(0, Math.round(entry.latencyMs)),
      errorCode: entry.errorCode ?? null,
    });
  } catch (error) {
    logger.warn("usage not recorded", { tool: entry.tool, orgId: ctx.orgId, err: error });
  }
}
