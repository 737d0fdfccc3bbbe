import { rm } from "node:fs/promises";
import type { Database } from "@/db/client";
import { forgetIntegrationInAgents } from "@/lib/agents/agent-rows";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { getMcpClient } from "../client/shared-client";
import { integrationDataFolder } from "../presets";
import { deleteIntegrationForOrg } from "../repository";
import { integrationAuditFields, integrationAuditTarget } from "./integration-audit";
import { loadIntegrationForOrg } from "./load-integration";

export async function deleteIntegration(db: Database, ctx: RequestContext, id: string) {
  requireAdmin(ctx);
  const row = await loadIntegrationForOrg(db, ctx, id);
  await db.transaction(async (tx) => {
    await deleteIntegrationForOrg(tx, ctx.orgId, row.id);
    await forgetIntegrationInAgents(tx, ctx.orgId, row.id);
    await publishCatalogChange(db, ctx.orgId, { executor: tx });
  });
  await getMcpClient().pool.closeIntegration(id);
  // What its bundled server kept (a knowledge graph, say) goes with it.
  await rm(integrationDataFolder(id), { recursive: true, force: true });
  await recordAudit(db, ctx, {
    action: "integration.delete",
    ...integrationAuditTarget(row),
    before: integrationAuditFields(row),
  });
}
