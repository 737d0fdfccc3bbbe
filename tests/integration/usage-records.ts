import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { usageRecords } from "@/db/schema";
import { flushUsage } from "@/lib/usage/record-usage";

type Surface = (typeof usageRecords.$inferSelect)["surface"];

/**
 * The usage records of one organization, optionally of one surface and tool, once the calls this process has
 * queued are written.
 */
export async function usageRecordsOf(db: Database, orgId: string, surface?: Surface, tool?: string) {
  await flushUsage(db);
  return db
    .select()
    .from(usageRecords)
    .where(
      and(
        eq(usageRecords.organizationId, orgId),
        surface ? eq(usageRecords.surface, surface) : undefined,
        tool ? eq(usageRecords.tool, tool) : undefined,
      ),
    )
    .orderBy(usageRecords.id);
}
