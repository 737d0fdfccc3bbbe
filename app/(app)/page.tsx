import { Cable, Users } from "lucide-react";
import Link from "next/link";
import { GettingStartedChecklist } from "@/components/overview/getting-started";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { gettingStarted } from "@/lib/orgs/getting-started";
import { listMembers } from "@/lib/orgs/members";
import { listOrganizationsForUser } from "@/lib/orgs/memberships";

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<{ created?: string; joined?: string }>;
}) {
  const { db, ctx } = await requireSignedInPage();
  const admin = isAdminRole(ctx.role);
  const [organizations, members, progress] = await Promise.all([
    listOrganizationsForUser(db, ctx.userId),
    listMembers(db, ctx),
    // The first steps are an admin's to take: members use what admins connected.
    admin ? gettingStarted(db, ctx.orgId) : null,
  ]);
  const org = organizations.find((o) => o.id === ctx.orgId);
  const { created, joined } = await searchParams;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold" data-testid="page-title">
          {org?.name}
        </h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Organization <code>{org?.slug}</code> · you are {ctx.role === "member" ? "a" : "an"} {ctx.role}
        </p>
      </div>
      {created === ctx.orgId ? <Alert tone="success">Your new organization is ready.</Alert> : null}
      {joined === ctx.orgId ? (
        <Alert tone="success">
          Welcome to {org?.name}: you joined as {ctx.role === "member" ? "a" : "an"} {ctx.role}.
        </Alert>
      ) : null}
      {progress ? <GettingStartedChecklist progress={progress} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <Cable className="mb-3 h-5 w-5 text-primary" aria-hidden />
          <CardTitle>Connect MCP servers</CardTitle>
          <CardDescription>
            Integrations connect your organization&apos;s MCP servers once; their tools then work in chat,
            over REST and through one MCP endpoint.
          </CardDescription>
          <Link
            href={admin ? "/integrations/new" : "/integrations"}
            className={`${buttonClasses({ variant: "secondary", size: "sm" })} mt-4`}
          >
            {admin ? "Add integration" : "See integrations"}
          </Link>
        </Card>
        <Card>
          <Users className="mb-3 h-5 w-5 text-primary" aria-hidden />
          <CardTitle>
            {members.length} {members.length === 1 ? "member" : "members"}
          </CardTitle>
          <CardDescription>
            {admin
              ? "Add teammates by email and choose what each may change."
              : "The people in this organization."}
          </CardDescription>
          <Link
            href="/settings/members"
            className={`${buttonClasses({ variant: "secondary", size: "sm" })} mt-4`}
          >
            {admin ? "Manage members" : "See members"}
          </Link>
        </Card>
      </div>
    </div>
  );
}
