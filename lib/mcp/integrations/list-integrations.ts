import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { loadOAuthConnections } from "../oauth/oauth-view";
import { listIntegrationsForOrg } from "../repository";
import { type IntegrationView, toView } from "./integration-view";

export async function listIntegrations(db: Database, ctx: RequestContext): Promise<IntegrationView[]> {
  const rows = await listIntegrationsForOrg(db, ctx.orgId);
  const connections = rows.some((row) => row.authType === "oauth")
    ? await loadOAuthConnections(db, ctx)
    : undefined;
  return rows.map((row) => toView(row, connections));
}
