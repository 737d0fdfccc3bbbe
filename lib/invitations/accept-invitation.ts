import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { invitations, type Role } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { passwordSchema, personNameSchema } from "@/lib/auth/schemas";
import { findActiveUserEmail, setActiveOrganization } from "@/lib/auth/user-rows";
import { createUserInOrganization } from "@/lib/auth/users";
import { UnauthorizedError } from "@/lib/errors";
import { addMembershipIfAbsent } from "@/lib/orgs/memberships";
import { parseInput } from "@/lib/validation";
import { AlreadyMemberError, InvitationEmailMismatchError, InvitationUnavailableError } from "./errors";
import { type InvitationDetails, requirePendingInvitation } from "./find-invitation";
import { isPendingInvitation } from "./pending";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface JoinedOrganization {
  orgId: string;
  organizationName: string;
  role: Role;
  userId: string;
}

/**
 * Marks the invitation used by `userId`, in one conditional UPDATE: of two clicks (or two people) at once, exactly
 * one gets the row back; the other learns why the link no longer works.
 */
async function claim(tx: Tx, invitation: InvitationDetails, userId: string) {
  const [claimed] = await tx
    .update(invitations)
    .set({ acceptedAt: sql`now()`, acceptedBy: userId })
    .where(and(eq(invitations.id, invitation.id), isPendingInvitation()))
    .returning({ id: invitations.id });
  if (claimed) return;
  const [row] = await tx
    .select({
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .where(eq(invitations.id, invitation.id));
  throw new InvitationUnavailableError(row?.acceptedAt ? "accepted" : row?.revokedAt ? "revoked" : "expired");
}

async function auditAcceptance(db: Database, invitation: InvitationDetails, userId: string) {
  await recordAudit(
    db,
    { orgId: invitation.organization.id, userId, role: invitation.role, isSuperadmin: false },
    {
      action: "invitation.accept",
      targetType: "invitation",
      targetId: invitation.id,
      targetName: invitation.email,
      after: { email: invitation.email, role: invitation.role, userId },
    },
  );
}

/**
 * A signed-in user joins through a link: only the invited email may, and never twice. Joining makes the
 * organization the user's active one.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; userId: string },
): Promise<JoinedOrganization> {
  const invitation = await requirePendingInvitation(db, input.token);
  const user = await findActiveUserEmail(db, input.userId);
  if (!user) throw new UnauthorizedError("Your session has ended. Sign in again.");
  if (user.email.toLowerCase() !== invitation.email) {
    throw new InvitationEmailMismatchError(invitation.email, user.email);
  }
  const orgId = invitation.organization.id;
  await db.transaction(async (tx) => {
    await claim(tx, invitation, input.userId);
    const joined = await addMembershipIfAbsent(tx, {
      organizationId: orgId,
      userId: input.userId,
      role: invitation.role,
    });
    // Already a member: the link stays unused (the transaction rolls the claim back).
    if (!joined) throw new AlreadyMemberError(invitation.organization.name);
    await setActiveOrganization(tx, input.userId, orgId);
  });
  await auditAcceptance(db, invitation, input.userId);
  return {
    orgId,
    organizationName: invitation.organization.name,
    role: invitation.role,
    userId: input.userId,
  };
}

const newAccountSchema = z.object({ name: personNameSchema, password: passwordSchema });

/**
 * Someone new creates their account through a link: the account has the invited email, joins with the invited
 * role and starts in that organization. Works while open registration is off: the link is the permission.
 */
export async function registerWithInvitation(
  db: Database,
  input: { token: string; name: unknown; password: unknown },
): Promise<JoinedOrganization & { email: string }> {
  const invitation = await requirePendingInvitation(db, input.token);
  const { name, password } = parseInput(newAccountSchema, { name: input.name, password: input.password });
  const user = await db.transaction(async (tx) => {
    const created = await createUserInOrganization(tx, {
      email: invitation.email,
      name,
      password,
      orgId: invitation.organization.id,
      role: invitation.role,
    });
    await claim(tx, invitation, created.id);
    return created;
  });
  await auditAcceptance(db, invitation, user.id);
  return {
    orgId: invitation.organization.id,
    organizationName: invitation.organization.name,
    role: invitation.role,
    userId: user.id,
    email: user.email,
  };
}
