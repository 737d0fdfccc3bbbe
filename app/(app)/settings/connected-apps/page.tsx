import type { Metadata } from "next";
import Link from "next/link";
import { GrantList } from "@/components/oauth/grant-list";
import { OAuthPolicyForm } from "@/components/oauth/oauth-policy-form";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import type { ScopeNames } from "@/lib/api-keys/key-descriptions";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listOrganizationGrants, listOwnGrants } from "@/lib/oauth-server/grants";
import { organizationOAuthPolicy } from "@/lib/oauth-server/org-policy";
import { scopeChoices } from "@/lib/tools/scope-choices";

export const metadata: Metadata = { title: "Connected apps" };

/**
 * The apps a person connected by signing in (Claude, ChatGPT, VS Code…), in every organization of theirs, with
 * Revoke; for owners and admins, also every member's in this organization and the organization's OAuth policy.
 */
export default async function ConnectedAppsPage() {
  const { db, ctx } = await requireSignedInPage();
  const admin = isAdminRole(ctx.role);
  const [own, everyone, policy] = await Promise.all([
    listOwnGrants(db, ctx),
    admin ? listOrganizationGrants(db, ctx) : Promise.resolve([]),
    admin ? organizationOAuthPolicy(db, ctx) : Promise.resolve(undefined),
  ]);
  const orgIds = [...new Set([...own, ...everyone].map((grant) => grant.organization.id))];
  const names = new Map<string, ScopeNames>(
    await Promise.all(
      orgIds.map(async (orgId): Promise<[string, ScopeNames]> => {
        const choices = await scopeChoices(db, { ...ctx, orgId });
        return [
          orgId,
          {
            integrations: new Map(choices.integrations.map((item) => [item.id, item.name])),
            capabilities: new Map(choices.capabilities.map((item) => [item.id, item.name])),
          },
        ];
      }),
    ),
  );
  const namesFor = (orgId: string) =>
    names.get(orgId) ?? { integrations: new Map(), capabilities: new Map() };
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Connected apps</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Apps you connected by signing in, such as Claude, ChatGPT or VS Code: each acts as you, in the
          organization you chose, with what you allowed.{" "}
          <Link href="/connect" className="underline underline-offset-2">
            Connect a client
          </Link>{" "}
          shows the address to give them.
        </p>
      </div>
      <Card className="p-0">
        <div className="px-5 pt-5">
          <CardTitle>Your apps</CardTitle>
        </div>
        {own.length === 0 ? (
          <p className="p-5 text-sm text-muted-foreground">
            You have not connected any app yet. Add this server&apos;s MCP address to an app and sign in when
            it asks.
          </p>
        ) : (
          <GrantList grants={own} namesFor={namesFor} showPerson={false} label="Your connected apps" />
        )}
      </Card>
      {policy ? (
        <>
          <Card>
            <CardTitle>OAuth clients in this organization</CardTitle>
            <CardDescription>
              Whether members may connect apps by signing in, and where those apps may send them back.
            </CardDescription>
            <OAuthPolicyForm enabled={policy.enabled} redirectHosts={policy.redirectHosts} />
          </Card>
          <Card className="p-0">
            <div className="px-5 pt-5">
              <CardTitle>Everyone&apos;s apps in this organization</CardTitle>
            </div>
            {everyone.length === 0 ? (
              <p className="p-5 text-sm text-muted-foreground">No member has connected an app here.</p>
            ) : (
              <GrantList
                grants={everyone}
                namesFor={namesFor}
                showPerson
                label="Connected apps of the organization"
              />
            )}
          </Card>
        </>
      ) : null}
    </div>
  );
}
