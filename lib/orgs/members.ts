import type { Database } from "@/db/client";
import type { Role } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { clearActiveOrganization } from "@/lib/auth/user-rows";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { deleteMemberCredentials } from "@/lib/mcp/oauth/stored-credentials";
import { endGrantsOfUser } from "@/lib/oauth-server/grants";
import { parseInput } from "@/lib/validation";
import {
  deleteMembership,
  listMembersWithUsers,
  lockMembershipRole,
  lockOwnerIds,
  setMembershipRole,
} from "./memberships";
import { roleSchema } from "./schemas";

// Nobody is added by email directly: people join by accepting an invitation (lib/invitations), so the one who
// invites learns nothing about whether an address has an account, and nobody joins without consenting.

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: Date;
}

/** Everyone in the context's organization. */
export function listMembers(db: Database, ctx: RequestContext): Promise<Member[]> {
  return listMembersWithUsers(db, ctx.orgId);
}

/** Only owners may hand out or take away ownership; admins manage admins and members (invitations too). */
export function assertMayManage(ctx: RequestContext, ...roles: Role[]) {
  if (ctx.role !== "owner" && roles.includes("owner")) {
    throw new ForbiddenError("Only an owner can grant, change or remove the owner role.");
  }
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The membership, locked for the rest of the transaction, and the number of owners (also locked). */
async function lockMembership(tx: Tx, orgId: string, userId: string) {
  const owners = await lockOwnerIds(tx, orgId);
  const membership = await lockMembershipRole(tx, orgId, userId);
  if (!membership) throw new NotFoundError("That member");
  return { membership, ownerCount: owners.length };
}

/** Changes a member's role; the last owner cannot be demoted. */
export async function changeMemberRole(
  db: Database,
  ctx: RequestContext,
  input: { userId: string; role: unknown },
) {
  requireAdmin(ctx);
  const role = parseInput(roleSchema, input.role);
  const changed = await db.transaction(async (tx) => {
    const { membership, ownerCount } = await lockMembership(tx, ctx.orgId, input.userId);
    assertMayManage(ctx, role, membership.role);
    if (membership.role === "owner" && role !== "owner" && ownerCount <= 1) {
      throw new ConflictError(
        "The organization's last owner cannot be demoted. Make someone else an owner first.",
      );
    }
    await setMembershipRole(tx, { orgId: ctx.orgId, userId: input.userId, role });
    return { userId: input.userId, role, previous: membership.role };
  });
  await recordAudit(db, ctx, {
    action: "member.role",
    targetType: "member",
    targetId: input.userId,
    before: { role: changed.previous },
    after: { role },
  });
  return { userId: changed.userId, role: changed.role };
}

/** Removes a member; the last owner cannot be removed. */
export async function removeMember(db: Database, ctx: RequestContext, input: { userId: string }) {
  requireAdmin(ctx);
  const removedRole = await db.transaction(async (tx) => {
    const { membership, ownerCount } = await lockMembership(tx, ctx.orgId, input.userId);
    assertMayManage(ctx, membership.role);
    if (membership.role === "owner" && ownerCount <= 1) {
      throw new ConflictError(
        "The organization's last owner cannot be removed. Make someone else an owner first.",
      );
    }
    await deleteMembership(tx, ctx.orgId, input.userId);
    // A removed user whose active organization this was falls back to another one at next request.
    await clearActiveOrganization(tx, input.userId, ctx.orgId);
    // Their own accounts connected to the organization's integrations leave with them.
    await deleteMemberCredentials(tx, ctx.orgId, input.userId);
    return membership.role;
  });
  // Apps they connected to this organization leave with them, on every instance.
  await endGrantsOfUser(db, ctx, { userId: input.userId, orgId: ctx.orgId }, "member removed");
  await recordAudit(db, ctx, {
    action: "member.remove",
    targetType: "member",
    targetId: input.userId,
    before: { role: removedRole },
  });
}
