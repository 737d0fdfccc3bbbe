import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { auth } from "@/lib/auth/nextauth";
import { databaseForRequest } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/user-rows";
import { InvitationEmailMismatchError } from "@/lib/invitations/errors";
import { findInvitationByToken } from "@/lib/invitations/find-invitation";
import { listOrganizationsForUser } from "@/lib/orgs/memberships";
import { acceptInvitationAction, openOrganizationAction, signOutForInvitationAction } from "./actions";
import { InvitationButton } from "./invitation-button";
import { InvitationSummary } from "./invitation-summary";
import { InvitationUnavailable } from "./invitation-unavailable";

// The link is the invitation: never hand it to another site as a referrer.
export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

/** Where an invitation link leads, signed in or not (outside the app's sign-in requirement). */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const db = databaseForRequest();
  const [invitation, session] = await Promise.all([findInvitationByToken(db, token), auth()]);
  if (!invitation) return <InvitationUnavailable reason="invalid" />;
  const user = session?.userId ? await findUserById(db, session.userId) : undefined;
  const membership = user
    ? (await listOrganizationsForUser(db, user.id)).find((org) => org.id === invitation.organization.id)
    : undefined;

  if (membership) {
    return (
      <div className="grid gap-4" data-testid="invitation-already-member">
        <h1 className="text-xl font-semibold">You are in {invitation.organization.name}</h1>
        <Alert tone="info">
          You are already a member of {invitation.organization.name}, as {membership.role}. There is nothing
          to accept.
        </Alert>
        <InvitationButton
          action={openOrganizationAction}
          fields={{ orgId: invitation.organization.id }}
          pendingText="Opening…"
        >
          {`Go to ${invitation.organization.name}`}
        </InvitationButton>
      </div>
    );
  }
  if (invitation.status !== "pending") return <InvitationUnavailable reason={invitation.status} />;

  const path = `/invite/${token}`;
  return (
    <div className="grid gap-5">
      <InvitationSummary invitation={invitation} />
      {!user ? (
        <div className="grid gap-3" data-testid="invitation-signed-out">
          <Link href={`${path}/register`} className={buttonClasses()}>
            Create an account
          </Link>
          <Link
            href={`/login?callbackUrl=${encodeURIComponent(path)}`}
            className={buttonClasses({ variant: "secondary" })}
          >
            Sign in
          </Link>
          <p className="text-xs text-muted-foreground">
            New to Switchboard? Create an account with {invitation.email}. Already have one with that address?
            Sign in, and you come back here to join.
          </p>
        </div>
      ) : user.email.toLowerCase() === invitation.email ? (
        <InvitationButton
          action={acceptInvitationAction}
          fields={{ invitation: token }}
          pendingText="Joining…"
        >
          {`Join ${invitation.organization.name}`}
        </InvitationButton>
      ) : (
        <div className="grid gap-3" data-testid="invitation-wrong-account">
          <Alert>{new InvitationEmailMismatchError(invitation.email, user.email).message}</Alert>
          <InvitationButton
            action={signOutForInvitationAction}
            fields={{ invitation: token }}
            pendingText="Signing out…"
            variant="secondary"
          >
            {`Sign out of ${user.email}`}
          </InvitationButton>
        </div>
      )}
    </div>
  );
}
