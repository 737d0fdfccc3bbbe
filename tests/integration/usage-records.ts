import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { usageRecords } from "@/db/schema";

/** The usage records of one tool called from one surface in one organization. */
export function usageRecordsOf(
  db: Database,
  orgId: string,
  surface: (typeof usageRecords.$inferSelect)["surface"],
  tool: string,
) {
  return db
    .select()
    .from(usageRecords)
    .where(
      and(
        eq(usageRecords.organizationId, orgId),
        eq(usageRecords.surface, surface),
        eq(usageRecords.tool, tool),
      ),
    );
}
