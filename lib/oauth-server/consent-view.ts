import { and, desc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type ApiKeyScope, oauthGrants } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { listOrganizationsForUser } from "@/lib/orgs/memberships";
import { findOAuthClientPolicies } from "@/lib/orgs/organizations";
import { type ScopeChoices, scopeChoices } from "@/lib/tools/scope-choices";
import { findPendingAuthorization } from "./authorization-requests";
import { type ClientView, clientView } from "./clients";
import { organizationRefusal } from "./consent";
import { isLoopbackRedirect, redirectHost } from "./redirect-uris";
import type { Endpoint } from "./resources";
import { scopeNamesOf } from "./scope-names";
import { proposedScope } from "./scopes";

/** An organization the person may choose on the consent page, with what the client could use there. */
export interface ConsentOrganization {
  id: string;
  name: string;
  /** Why it will not let this client in; the option is then shown but cannot be chosen. */
  refusal?: string;
  choices: ScopeChoices;
  /** What the form proposes: the person's earlier choice for this client, else what the client asked for. */
  proposed: { scope: ApiKeyScope | null; metaToolsOnly: boolean };
}

export interface ConsentView {
  requestId: string;
  client: ClientView;
  redirectHost: string;
  /** A desktop client's loopback redirect: anyone can claim one, so the page says so. */
  loopbackRedirect: boolean;
  endpoint: Endpoint;
  requestedScope: string | null;
  organizations: ConsentOrganization[];
  /** The organization to preselect: the one chosen for this client before, else the active one. */
  preselectedOrgId: string | undefined;
}

/** Everything the consent page shows for a pending request, or undefined when it expired or was answered. */
export async function consentView(
  db: Database,
  ctx: UserContext,
  requestId: string,
): Promise<ConsentView | undefined> {
  const request = await findPendingAuthorization(db, requestId);
  if (!request) return undefined;
  const [orgs, earlier] = await Promise.all([
    listOrganizationsForUser(db, ctx.userId),
    db
      .select({
        orgId: oauthGrants.organizationId,
        scope: oauthGrants.scope,
        metaToolsOnly: oauthGrants.metaToolsOnly,
      })
      .from(oauthGrants)
      .where(
        and(
          eq(oauthGrants.userId, ctx.userId),
          eq(oauthGrants.clientId, request.clientId),
          eq(oauthGrants.resource, request.resource),
        ),
      )
      .orderBy(desc(oauthGrants.updatedAt)),
  ]);
  const policies = await findOAuthClientPolicies(
    db,
    orgs.map((org) => org.id),
  );
  const organizations = await Promise.all(
    orgs.map(async (org): Promise<ConsentOrganization> => {
      const orgCtx = { ...ctx, orgId: org.id, role: org.role };
      const [choices, names] = await Promise.all([scopeChoices(db, orgCtx), scopeNamesOf(db, org.id)]);
      const remembered = earlier.find((grant) => grant.orgId === org.id);
      return {
        id: org.id,
        name: org.name,
        refusal: organizationRefusal(policies.get(org.id), request),
        choices,
        proposed: remembered
          ? { scope: remembered.scope ?? null, metaToolsOnly: remembered.metaToolsOnly }
          : { scope: proposedScope(request.scope, names), metaToolsOnly: false },
      };
    }),
  );
  const open = organizations.filter((org) => !org.refusal).map((org) => org.id);
  const preferred = [earlier[0]?.orgId, ctx.orgId].find((id) => id && open.includes(id));
  return {
    requestId,
    client: clientView(request.client),
    redirectHost: redirectHost(request.redirectUri),
    loopbackRedirect: isLoopbackRedirect(new URL(request.redirectUri)),
    endpoint: request.resource,
    requestedScope: request.scope,
    organizations,
    preselectedOrgId: preferred ?? open[0],
  };
}
