import { UserPlus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listPendingInvitations } from "@/lib/invitations/invitations";
import { listMembers } from "@/lib/orgs/members";
import { MemberActions } from "./member-actions";
import { PendingInvitations } from "./pending-invitations";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const { db, ctx } = await requireSignedInPage();
  const canManage = isAdminRole(ctx.role);
  const [members, invitations] = await Promise.all([
    listMembers(db, ctx),
    canManage ? listPendingInvitations(db, ctx) : [],
  ]);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold">Members</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Owners and admins manage integrations and members; members use what the organization has
            connected.{" "}
            {canManage
              ? "To add someone, with or without a Switchboard account, invite them: they join when they accept."
              : null}
          </p>
        </div>
        {canManage ? (
          <Link href="/settings/members/invite" className={buttonClasses()}>
            <UserPlus className="h-4 w-4" aria-hidden /> Invite people
          </Link>
        ) : null}
      </div>
      <Card className="p-0">
        <ul className="divide-y" aria-label="Members" data-testid="member-list">
          {members.map((member) => (
            <li
              key={member.userId}
              className="flex flex-wrap items-center gap-3 px-5 py-3"
              data-testid="member-row"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">
                  {member.name}{" "}
                  {member.userId === ctx.userId ? <span className="text-muted-foreground">(you)</span> : null}
                </p>
                <p className="truncate text-xs text-muted-foreground">{member.email}</p>
              </div>
              {canManage && member.userId !== ctx.userId ? (
                <MemberActions
                  member={{ userId: member.userId, email: member.email, role: member.role }}
                  actorRole={ctx.role}
                />
              ) : (
                <Badge>{member.role}</Badge>
              )}
            </li>
          ))}
        </ul>
      </Card>
      {canManage ? <PendingInvitations invitations={invitations} actorRole={ctx.role} /> : null}
    </div>
  );
}
