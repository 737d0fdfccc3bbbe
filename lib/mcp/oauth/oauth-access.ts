import type { Database } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin, requireUser } from "@/lib/auth/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { findIntegrationForOrg, type McpIntegration } from "../repository";
import type { CredentialOwner } from "./stored-credentials";

/** The organization's integration, checked to use OAuth. */
export async function loadOAuthIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
): Promise<McpIntegration> {
  const integration = await findIntegrationForOrg(db, ctx.orgId, id);
  if (!integration) throw new NotFoundError("That integration");
  if (integration.authType !== "oauth" || !integration.url)
    throw new ValidationError(`${integration.name} does not use OAuth.`);
  return integration;
}

/** Who the connection is for, and whether this caller may make it. */
export function ownerFor(
  integration: McpIntegration,
  ctx: RequestContext,
  personal: boolean,
): CredentialOwner {
  const user = requireUser(ctx);
  const perUser = integration.oauth?.credentials === "user";
  if (personal !== perUser) {
    throw new ValidationError(
      perUser
        ? `${integration.name} connects each user's own account; connect yours on its page.`
        : `${integration.name} is connected once for the organization, by an admin.`,
    );
  }
  if (!personal) requireAdmin(ctx);
  return {
    organizationId: integration.organizationId,
    integrationId: integration.id,
    userId: personal ? user.userId : null,
  };
}

/** Records a change of an integration's tokens: which one, by whom; the tokens only as "changed". */
export function auditOAuthChange(
  db: Database,
  ctx: RequestContext,
  integration: McpIntegration,
  change: "connect" | "disconnect",
  personal: boolean,
): Promise<void> {
  return recordAudit(db, ctx, {
    action: `integration.oauth_${change}${personal ? "_own" : ""}`,
    targetType: "integration",
    targetId: integration.id,
    targetName: integration.name,
    changedSecrets: ["oauth.tokens"],
  });
}
