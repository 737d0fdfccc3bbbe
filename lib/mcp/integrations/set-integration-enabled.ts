import type { Database } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { getMcpClient } from "../client/shared-client";
import { setIntegrationEnabledForOrg } from "../repository";
import { integrationAuditTarget } from "./integration-audit";
import { loadIntegrationForOrg } from "./load-integration";

export async function setIntegrationEnabled(db: Database, ctx: RequestContext, id: string, enabled: boolean) {
  requireAdmin(ctx);
  const row = await loadIntegrationForOrg(db, ctx, id);
  await setIntegrationEnabledForOrg(db, ctx.orgId, id, enabled);
  await publishCatalogChange(db, ctx.orgId);
  if (!enabled) await getMcpClient().pool.closeIntegration(id);
  await recordAudit(db, ctx, {
    action: enabled ? "integration.enable" : "integration.disable",
    ...integrationAuditTarget(row),
    before: { enabled: row.enabled },
    after: { enabled },
  });
}
