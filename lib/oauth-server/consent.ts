import { sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { type ApiKeyScope, oauthGrants } from "@/db/schema";
import { normalizeScope } from "@/lib/api-keys/key-scope";
import { requireOwnScope } from "@/lib/api-keys/scope-ownership";
import { recordAudit } from "@/lib/audit/record-audit";
import type { UserContext } from "@/lib/auth/context";
import { AppError, ConflictError, ForbiddenError } from "@/lib/errors";
import { findMembershipRole } from "@/lib/orgs/memberships";
import { findOAuthClientPolicies, type OAuthClientPolicy } from "@/lib/orgs/organizations";
import { isUuid } from "@/lib/validation";
import {
  findPendingAuthorization,
  type PendingAuthorization,
  replyUrl,
  takePendingAuthorization,
} from "./authorization-requests";
import { GRANTS_CHANNEL } from "./grants";
import { redirectHost, redirectHostAllowed } from "./redirect-uris";
import { issueCode } from "./tokens";

export class AuthorizationRequestGoneError extends AppError {
  constructor() {
    super(
      "not_found:oauth_request",
      "This sign-in request has expired or was already answered. Go back to the app and connect again.",
    );
  }
}

/** What the person chose on the consent page. */
export interface ConsentChoice {
  orgId: string;
  /** What the client may use, as an API key's scope; null: everything of the organization. */
  scope: ApiKeyScope | null;
  metaToolsOnly: boolean;
}

/** Why an organization will not let this client in, or undefined when it will. */
export function organizationRefusal(
  policy: OAuthClientPolicy | undefined,
  request: Pick<PendingAuthorization, "redirectUri">,
): string | undefined {
  if (!policy?.enabled) return "Its owners and admins turned OAuth clients off.";
  if (!redirectHostAllowed(policy.redirectHosts, request.redirectUri))
    return `It does not allow clients that send you back to ${redirectHost(request.redirectUri)}.`;
  return undefined;
}

/**
 * The person allows the client: in the organization they chose (theirs, letting OAuth clients in, allowing the
 * client's redirect host), with what they chose (ids of that organization; never more than a member may use, as
 * the token acts as a member). Their grant for this client and endpoint is created or updated, a code is issued
 * for the request's redirect URI and PKCE challenge, and the answer is the URL to send the browser to.
 */
export async function approveAuthorization(
  db: Database,
  ctx: UserContext,
  requestId: string,
  choice: ConsentChoice,
  issuer: string,
): Promise<string> {
  const request = await findPendingAuthorization(db, requestId);
  if (!request) throw new AuthorizationRequestGoneError();
  const membership = isUuid(choice.orgId)
    ? await findMembershipRole(db, { userId: ctx.userId, orgId: choice.orgId })
    : undefined;
  if (!membership) throw new ForbiddenError("You are not a member of that organization.");
  const orgCtx = { ...ctx, orgId: choice.orgId, role: membership.role };
  const refusal = organizationRefusal(
    (await findOAuthClientPolicies(db, [choice.orgId])).get(choice.orgId),
    request,
  );
  const clientName = request.client.metadata.client_name ?? "OAuth client";
  if (refusal) {
    await recordAudit(db, orgCtx, {
      action: "oauth_grant.refuse",
      targetType: "oauth_client",
      targetName: clientName,
      after: { reason: refusal, redirectHost: redirectHost(request.redirectUri) },
    });
    throw new ForbiddenError(`That organization does not let this client in. ${refusal}`);
  }
  const scope = normalizeScope(choice.scope);
  await requireOwnScope(db, choice.orgId, scope);
  if (!(await takePendingAuthorization(db, requestId))) throw new AuthorizationRequestGoneError();
  const { code, created, grantId } = await db.transaction(async (tx) => {
    const [grant] = await tx
      .insert(oauthGrants)
      .values({
        organizationId: choice.orgId,
        userId: ctx.userId,
        clientId: request.clientId,
        resource: request.resource,
        scope,
        metaToolsOnly: choice.metaToolsOnly,
      })
      .onConflictDoUpdate({
        target: [oauthGrants.userId, oauthGrants.clientId, oauthGrants.organizationId, oauthGrants.resource],
        set: { scope, metaToolsOnly: choice.metaToolsOnly, updatedAt: new Date() },
      })
      .returning({ id: oauthGrants.id, created: sql<boolean>`xmax = 0` });
    if (!grant) throw new ConflictError("The authorization could not be saved. Try again.");
    // Tokens of an existing grant carry its scope from memory: they must read the new one.
    await publishChange(db, GRANTS_CHANNEL, grant.id, tx);
    const issued = await issueCode(tx, grant.id, request);
    return { code: issued, created: grant.created, grantId: grant.id };
  });
  await recordAudit(db, orgCtx, {
    action: created ? "oauth_grant.create" : "oauth_grant.update",
    targetType: "oauth_grant",
    targetId: grantId,
    targetName: clientName,
    after: {
      client: clientName,
      clientKind: request.client.kind,
      redirectHost: redirectHost(request.redirectUri),
      endpoint: request.resource,
      scope,
      metaToolsOnly: choice.metaToolsOnly,
    },
  });
  return replyUrl({ redirectUri: request.redirectUri, state: request.state, issuer }, { code });
}

/** The person refuses: the client hears access_denied at its redirect URI. */
export async function denyAuthorization(db: Database, requestId: string, issuer: string): Promise<string> {
  const request = await findPendingAuthorization(db, requestId);
  if (!request || !(await takePendingAuthorization(db, requestId))) throw new AuthorizationRequestGoneError();
  return replyUrl(
    { redirectUri: request.redirectUri, state: request.state, issuer },
    { error: "access_denied", error_description: "The person declined to connect this client." },
  );
}
