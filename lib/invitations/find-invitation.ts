import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { invitations, organizations, type Role, users } from "@/db/schema";
import { InvitationUnavailableError } from "./errors";
import { isPendingInvitation } from "./pending";
import type { InvitationStatus } from "./schemas";
import { hashInvitationToken, isInvitationToken } from "./tokens";

/** What the holder of a link may see: the organization, the role, who invited and which email. */
export interface InvitationDetails {
  id: string;
  organization: { id: string; name: string; slug: string };
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
  acceptedBy: string | null;
  status: InvitationStatus;
}

/** The invitation a link's token names, whatever its state; null when no invitation has that token. */
export async function findInvitationByToken(db: Database, token: string): Promise<InvitationDetails | null> {
  if (!isInvitationToken(token)) return null;
  const [row] = await db
    .select({
      id: invitations.id,
      organizationId: organizations.id,
      organizationName: organizations.name,
      organizationSlug: organizations.slug,
      email: invitations.email,
      role: invitations.role,
      invitedBy: users.name,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      acceptedBy: invitations.acceptedBy,
      revokedAt: invitations.revokedAt,
      // The database's clock decides, as it does when the link is accepted.
      expired: sql<boolean>`${invitations.expiresAt} <= now()`,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)));
  if (!row) return null;
  const status: InvitationStatus = row.acceptedAt
    ? "accepted"
    : row.revokedAt
      ? "revoked"
      : row.expired
        ? "expired"
        : "pending";
  return {
    id: row.id,
    organization: { id: row.organizationId, name: row.organizationName, slug: row.organizationSlug },
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    expiresAt: row.expiresAt,
    acceptedBy: row.acceptedBy,
    status,
  };
}

/** The invitation, if it can still be accepted; otherwise an error that says why not. */
export async function requirePendingInvitation(db: Database, token: string): Promise<InvitationDetails> {
  const invitation = await findInvitationByToken(db, token);
  if (!invitation) throw new InvitationUnavailableError("invalid");
  if (invitation.status !== "pending") throw new InvitationUnavailableError(invitation.status);
  return invitation;
}

/** Whether the email has an invitation, to any organization, that can still be accepted. */
export async function hasPendingInvitation(db: Database, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.email, email), isPendingInvitation()))
    .limit(1);
  return row !== undefined;
}
