import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { invitations, type Role, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { findUserName } from "@/lib/auth/user-rows";
import { getEnv } from "@/lib/env";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { assertMayManage } from "@/lib/orgs/members";
import { findMemberIdByEmail } from "@/lib/orgs/memberships";
import { isUuid, parseInput } from "@/lib/validation";
import { isPendingInvitation } from "./pending";
import { createInvitationSchema } from "./schemas";
import { hashInvitationToken, newInvitationToken } from "./tokens";

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  /** The inviter's name; null when an operator invited through the CLI or the inviter's account is gone. */
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Invites an email to the context's organization with a role (only an owner may invite an owner). The token is
 * returned once, to build the link; only its hash is kept.
 */
export async function createInvitation(
  db: Database,
  ctx: RequestContext,
  input: { email: unknown; role: unknown },
  options: { ttlHours?: number } = {},
): Promise<{ token: string; invitation: PendingInvitation }> {
  requireAdmin(ctx);
  const { email, role } = parseInput(createInvitationSchema, input);
  assertMayManage(ctx, role);
  const member = await findMemberIdByEmail(db, ctx.orgId, email);
  if (member) {
    const message = `${email} is already a member of this organization.`;
    throw new ConflictError(message, { email: [message] });
  }
  const [pending] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(eq(invitations.organizationId, ctx.orgId), eq(invitations.email, email), isPendingInvitation()),
    );
  if (pending) {
    const message = `${email} already has a pending invitation. Revoke it to send a new link.`;
    throw new ConflictError(message, { email: [message] });
  }

  const token = newInvitationToken();
  const ttlHours = options.ttlHours ?? getEnv().INVITATION_TTL_HOURS;
  const [row] = await db
    .insert(invitations)
    .values({
      organizationId: ctx.orgId,
      email,
      role,
      tokenHash: hashInvitationToken(token),
      invitedBy: ctx.userId ?? null,
      expiresAt: sql`now() + make_interval(hours => ${ttlHours}::int)`,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  await recordAudit(db, ctx, {
    action: "invitation.create",
    targetType: "invitation",
    targetId: row.id,
    targetName: row.email,
    after: { email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString() },
  });
  const inviter = ctx.userId ? ((await findUserName(db, ctx.userId)) ?? null) : null;
  return {
    token,
    invitation: {
      id: row.id,
      email: row.email,
      role: row.role,
      invitedBy: inviter,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    },
  };
}

/** The organization's invitations that can still be accepted, newest first. */
export async function listPendingInvitations(
  db: Database,
  ctx: RequestContext,
): Promise<PendingInvitation[]> {
  requireAdmin(ctx);
  return db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedBy: users.name,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.organizationId, ctx.orgId), isPendingInvitation()))
    .orderBy(desc(invitations.createdAt));
}

/** Withdraws an unused invitation: its link stops working at once. */
export async function revokeInvitation(db: Database, ctx: RequestContext, id: string): Promise<void> {
  requireAdmin(ctx);
  const notFound = () => new NotFoundError("That pending invitation");
  if (!isUuid(id)) throw notFound();
  const unused = and(
    eq(invitations.id, id),
    eq(invitations.organizationId, ctx.orgId),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
  );
  const [invitation] = await db.select({ role: invitations.role }).from(invitations).where(unused);
  if (!invitation) throw notFound();
  assertMayManage(ctx, invitation.role);
  const [revoked] = await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(unused)
    .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
  if (!revoked) throw notFound();
  await recordAudit(db, ctx, {
    action: "invitation.revoke",
    targetType: "invitation",
    targetId: revoked.id,
    targetName: revoked.email,
    before: { email: revoked.email, role: revoked.role },
  });
}
