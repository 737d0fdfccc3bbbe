import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { InvitationUnavailableError, type UnavailableReason } from "@/lib/invitations/errors";

const headings: Record<UnavailableReason, string> = {
  invalid: "This invitation link does not work",
  accepted: "This invitation has already been used",
  revoked: "This invitation was revoked",
  expired: "This invitation has expired",
};

/** What happened to a link that cannot be used any more, and what to do next. */
export function InvitationUnavailable({ reason }: { reason: UnavailableReason }) {
  return (
    <div className="grid gap-4" data-testid="invitation-unavailable" data-reason={reason}>
      <h1 className="text-xl font-semibold">{headings[reason]}</h1>
      <Alert>{new InvitationUnavailableError(reason).message}</Alert>
      <p className="text-sm text-muted-foreground">
        {reason === "accepted"
          ? "If you used it yourself, sign in to reach the organization."
          : "The person who invited you can create a new link in Members."}
      </p>
      <Link href="/login" className={buttonClasses({ variant: "secondary" })}>
        Go to sign in
      </Link>
    </div>
  );
}
