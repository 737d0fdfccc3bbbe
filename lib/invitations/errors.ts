import { AppError, ConflictError } from "@/lib/errors";

/** Why a link cannot be used: each says what happened and what to do next. */
export type UnavailableReason = "invalid" | "accepted" | "revoked" | "expired";

const messages: Record<UnavailableReason, string> = {
  invalid:
    "This invitation link is not valid. Check that you opened the whole link, or ask for a new invitation.",
  accepted:
    "This invitation has already been used: each link works once. If you still need to join, ask for a new invitation.",
  revoked: "This invitation was withdrawn. Ask an owner or admin of the organization for a new invitation.",
  expired: "This invitation has expired. Ask an owner or admin of the organization for a new invitation.",
};

export class InvitationUnavailableError extends AppError {
  constructor(readonly reason: UnavailableReason) {
    super(reason === "invalid" ? "not_found:invitation" : "conflict:invitation", messages[reason]);
  }
}

/** The signed-in account is not the one invited: nothing is accepted. */
export class InvitationEmailMismatchError extends AppError {
  constructor(invitedEmail: string, signedInEmail: string) {
    super(
      "forbidden:invitation",
      `This invitation is for ${invitedEmail}, and you are signed in as ${signedInEmail}. Sign out and sign in (or create an account) as ${invitedEmail}, or ask for an invitation to ${signedInEmail}.`,
    );
  }
}

export class AlreadyMemberError extends ConflictError {
  constructor(organizationName: string) {
    super(`You are already a member of ${organizationName}.`);
  }
}
