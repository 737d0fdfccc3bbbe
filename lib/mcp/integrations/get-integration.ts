import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { loadOAuthConnections } from "../oauth/oauth-view";
import { type IntegrationView, toView } from "./integration-view";
import { loadIntegrationForOrg } from "./load-integration";

export async function getIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
): Promise<IntegrationView> {
  const row = await loadIntegrationForOrg(db, ctx, id);
  return toView(row, row.authType === "oauth" ? await loadOAuthConnections(db, ctx) : undefined);
}
