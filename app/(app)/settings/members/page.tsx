import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { getDb } from "@/db/client";
import { isAdminRole } from "@/lib/auth/context";
import { requirePageContext } from "@/lib/auth/request-context";
import { listMembers } from "@/lib/orgs/members";
import { AddMemberForm } from "./add-member-form";
import { MemberActions } from "./member-actions";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const ctx = await requirePageContext();
  const members = await listMembers(getDb(), ctx);
  const canManage = isAdminRole(ctx.role);
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Members</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Owners and admins manage integrations and members; members use what the organization has connected.
        </p>
      </div>
      {canManage ? (
        <Card>
          <CardTitle>Add a member</CardTitle>
          <CardDescription>They need a Switchboard account with this email.</CardDescription>
          <AddMemberForm canGrantOwner={ctx.role === "owner"} />
        </Card>
      ) : null}
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
    </div>
  );
}
