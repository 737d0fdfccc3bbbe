import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { type ApiKeyScope, oauthClients, oauthGrants, organizations, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { isAdminRole, type RequestContext, requireAdmin, type UserContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { findMembershipRole } from "@/lib/orgs/memberships";
import { isUuid } from "@/lib/validation";
import { type ClientView, clientView } from "./clients";
import type { Endpoint } from "./resources";

export const GRANTS_CHANNEL = "switchboard_oauth_grants" as const;

/** A grant as Connected apps lists it. */
export interface GrantView {
  id: string;
  organization: { id: string; name: string };
  person: { id: string; name: string; email: string };
  client: ClientView;
  resource: Endpoint;
  scope: ApiKeyScope | null;
  metaToolsOnly: boolean;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
}

function grantViews(db: Database, where: ReturnType<typeof and>) {
  return db
    .select({
      grant: oauthGrants,
      orgName: organizations.name,
      personName: users.name,
      personEmail: users.email,
      client: { clientId: oauthClients.clientId, kind: oauthClients.kind, metadata: oauthClients.metadata },
    })
    .from(oauthGrants)
    .innerJoin(organizations, eq(organizations.id, oauthGrants.organizationId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(where)
    .orderBy(desc(oauthGrants.updatedAt))
    .then((rows) =>
      rows.map(
        ({ grant, orgName, personName, personEmail, client }): GrantView => ({
          id: grant.id,
          organization: { id: grant.organizationId, name: orgName },
          person: { id: grant.userId, name: personName, email: personEmail },
          client: clientView(client),
          resource: grant.resource as Endpoint,
          scope: grant.scope ?? null,
          metaToolsOnly: grant.metaToolsOnly,
          createdAt: grant.createdAt.toISOString(),
          updatedAt: grant.updatedAt.toISOString(),
          lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
        }),
      ),
    );
}

/** The clients this person authorized, in every organization of theirs. */
export function listOwnGrants(db: Database, ctx: UserContext): Promise<GrantView[]> {
  return grantViews(db, and(eq(oauthGrants.userId, ctx.userId)));
}

/** Every grant of the organization's members, for its owners and admins. */
export async function listOrganizationGrants(db: Database, ctx: RequestContext): Promise<GrantView[]> {
  requireAdmin(ctx);
  return grantViews(db, and(eq(oauthGrants.organizationId, ctx.orgId)));
}

type GrantRow = { id: string; organizationId: string; userId: string; clientName: string | undefined };

/**
 * Deletes grants (and with them their codes, tokens and sessions) and tells every instance, in one transaction,
 * so a token of theirs is refused everywhere as soon as it commits. Each is audited in its organization.
 */
async function deleteGrants(
  db: Database,
  where: ReturnType<typeof and>,
  audit: { ctx: RequestContext | null; reason: string },
): Promise<GrantRow[]> {
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx.delete(oauthGrants).where(where).returning({
      id: oauthGrants.id,
      organizationId: oauthGrants.organizationId,
      userId: oauthGrants.userId,
      clientId: oauthGrants.clientId,
    });
    for (const row of rows) await publishChange(db, GRANTS_CHANNEL, row.id, tx);
    return rows;
  });
  if (deleted.length === 0) return [];
  const clients = await db
    .select({ id: oauthClients.id, metadata: oauthClients.metadata })
    .from(oauthClients)
    .where(inArray(oauthClients.id, [...new Set(deleted.map((row) => row.clientId))]));
  const names = new Map(clients.map((client) => [client.id, client.metadata.client_name]));
  const grants = deleted.map((row) => ({ ...row, clientName: names.get(row.clientId) }));
  for (const grant of grants)
    await recordAudit(db, auditContext(audit.ctx, grant), {
      action: "oauth_grant.revoke",
      targetType: "oauth_grant",
      targetId: grant.id,
      targetName: grant.clientName ?? "OAuth client",
      before: { person: grant.userId },
      after: { reason: audit.reason },
    });
  return grants;
}

/** The audit's actor in the grant's organization: whoever acted, else the grant's person (a replayed token). */
function auditContext(
  ctx: RequestContext | null,
  grant: { organizationId: string; userId: string },
): RequestContext {
  if (ctx?.userId)
    return {
      userId: ctx.userId,
      orgId: grant.organizationId,
      role: ctx.role,
      isSuperadmin: ctx.isSuperadmin,
    };
  return { userId: grant.userId, orgId: grant.organizationId, role: "member", isSuperadmin: false };
}

/**
 * Revokes one grant: a person's own (in any organization of theirs), or any grant of their organization for its
 * owners and admins. Its client's tokens stop working on every instance at once.
 */
export async function revokeGrant(db: Database, ctx: UserContext, grantId: string): Promise<void> {
  if (!isUuid(grantId)) throw new NotFoundError("That connected app");
  const [grant] = await db
    .select({ organizationId: oauthGrants.organizationId, userId: oauthGrants.userId })
    .from(oauthGrants)
    .where(eq(oauthGrants.id, grantId));
  if (!grant) throw new NotFoundError("That connected app");
  if (grant.userId !== ctx.userId) {
    const membership = await findMembershipRole(db, { userId: ctx.userId, orgId: grant.organizationId });
    if (!membership || !isAdminRole(membership.role)) throw new NotFoundError("That connected app");
  }
  await deleteGrants(db, and(eq(oauthGrants.id, grantId)), { ctx, reason: "revoked" });
}

/**
 * Ends a grant because it was abused (a refresh token or code used twice): the person's client must authorize
 * again. Audited with the reason, as the grant's person.
 */
export async function endGrant(db: Database, grantId: string, reason: string): Promise<void> {
  await deleteGrants(db, and(eq(oauthGrants.id, grantId)), { ctx: null, reason });
}

/**
 * Ends a person's grants, in one organization (they were removed from it) or in all (they were disabled, or their
 * password changed), as their sessions end.
 */
export async function endGrantsOfUser(
  db: Database,
  ctx: RequestContext | null,
  { userId, orgId }: { userId: string; orgId?: string },
  reason: string,
): Promise<void> {
  await deleteGrants(
    db,
    and(eq(oauthGrants.userId, userId), orgId ? eq(oauthGrants.organizationId, orgId) : undefined),
    { ctx, reason },
  );
}

/** Ends every grant of an organization (OAuth clients turned off), or of its clients outside `keep`. */
export async function endOrganizationGrants(
  db: Database,
  ctx: RequestContext,
  reason: string,
  keepClient: (redirectUris: readonly string[]) => boolean = () => false,
): Promise<number> {
  const rows = await db
    .select({ id: oauthGrants.id, redirectUris: sql<string[]>`${oauthClients.metadata}->'redirect_uris'` })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(eq(oauthGrants.organizationId, ctx.orgId));
  const ids = rows.filter((row) => !keepClient(row.redirectUris ?? [])).map((row) => row.id);
  if (ids.length === 0) return 0;
  const ended = await deleteGrants(
    db,
    and(eq(oauthGrants.organizationId, ctx.orgId), inArray(oauthGrants.id, ids)),
    { ctx, reason },
  );
  return ended.length;
}
