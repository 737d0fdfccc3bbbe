import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { agents } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { getMcpClient } from "../client/shared-client";
import { deleteIntegrationForOrg } from "../repository";
import { integrationAuditFields, integrationAuditTarget } from "./integration-audit";
import { loadIntegrationForOrg } from "./load-integration";

export async function deleteIntegration(db: Database, ctx: RequestContext, id: string) {
  requireAdmin(ctx);
  const row = await loadIntegrationForOrg(db, ctx, id);
  await db.transaction(async (tx) => {
    await deleteIntegrationForOrg(tx, ctx.orgId, row.id);
    // Agents that listed it stop listing it, instead of reporting a missing integration at each conversation.
    await tx
      .update(agents)
      .set({ mcpIntegrationIds: sql`${agents.mcpIntegrationIds} - ${row.id}::text` })
      .where(and(eq(agents.organizationId, ctx.orgId), sql`${agents.mcpIntegrationIds} ? ${row.id}::text`));
    await publishCatalogChange(db, ctx.orgId, { executor: tx });
  });
  await getMcpClient().pool.closeIntegration(id);
  await recordAudit(db, ctx, {
    action: "integration.delete",
    ...integrationAuditTarget(row),
    before: integrationAuditFields(row),
  });
}
