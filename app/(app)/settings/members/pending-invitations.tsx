import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import type { Role } from "@/lib/auth/context";
import type { PendingInvitation } from "@/lib/invitations/invitations";
import { RevokeInvitationButton } from "./revoke-invitation-button";

const date = (value: Date) => value.toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });

/** Invitations not used yet, each revocable (an owner's invitation only by an owner). */
export function PendingInvitations({
  invitations,
  actorRole,
}: {
  invitations: PendingInvitation[];
  actorRole: Role;
}) {
  return (
    <Card className="p-0">
      <div className="px-5 pt-5">
        <CardTitle id="pending-invitations-title">Pending invitations</CardTitle>
        <CardDescription>
          {invitations.length === 0
            ? "None: every invitation was used, revoked or has expired."
            : "Links not used yet. Revoke one that went to the wrong place."}
        </CardDescription>
      </div>
      <ul
        className="mt-3 divide-y border-t"
        aria-labelledby="pending-invitations-title"
        data-testid="invitation-list"
      >
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center gap-3 px-5 py-3"
            data-testid="invitation-row"
          >
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">
                {invitation.email} <Badge className="ml-1">{invitation.role}</Badge>
              </p>
              <p className="text-xs text-muted-foreground">
                Invited by {invitation.invitedBy ?? "an operator"} · expires{" "}
                <time dateTime={invitation.expiresAt.toISOString()}>{date(invitation.expiresAt)}</time>
              </p>
            </div>
            <RevokeInvitationButton
              id={invitation.id}
              email={invitation.email}
              disabled={invitation.role === "owner" && actorRole !== "owner"}
            />
          </li>
        ))}
      </ul>
    </Card>
  );
}
