import { asc, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { markUserDisabled, searchUsersByEmailOrName } from "@/lib/auth/user-rows";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { integrationCountOf } from "@/lib/mcp/repository";
import { endGrantsOfUser } from "@/lib/oauth-server/grants";
import { listMembershipsOfUsers, memberCountOf } from "@/lib/orgs/memberships";
import { flushUsage } from "@/lib/usage/record-usage";
import { isUuid } from "@/lib/validation";

export function requireSuperadmin(ctx: RequestContext) {
  if (!ctx.isSuperadmin) throw new ForbiddenError("Only a superadmin can do that.");
}

/** Every organization with its members, integrations and tool calls of the last 30 days. */
export async function listOrganizationsOverview(db: Database, ctx: RequestContext) {
  requireSuperadmin(ctx);
  await flushUsage(db);
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  // Correlated counts name their tables in full: inside sql`` drizzle writes bare column names.
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      members: memberCountOf(sql`"organizations"."id"`),
      integrations: integrationCountOf(sql`"organizations"."id"`),
      calls30d:
        sql<number>`(select count(*) from usage_records u where u.organization_id = "organizations"."id" and u.occurred_at >= ${since}::timestamptz)`.mapWith(
          Number,
        ),
    })
    .from(organizations)
    .orderBy(asc(organizations.name));
}

/** Users whose email or name contains the query (all, without one), with their memberships. */
export async function searchUsers(db: Database, ctx: RequestContext, query: string) {
  requireSuperadmin(ctx);
  const q = query.trim().slice(0, 100);
  const found = await searchUsersByEmailOrName(db, q);
  const ids = found.map((u) => u.id);
  const rows = ids.length ? await listMembershipsOfUsers(db, ids) : [];
  return found.map((user) => ({ ...user, memberships: rows.filter((row) => row.userId === user.id) }));
}

/**
 * Disables a user (every session of theirs ends at its next request, and they cannot sign in) or enables them
 * again; sessions from before the disabling stay ended.
 */
export async function setUserDisabled(db: Database, ctx: RequestContext, userId: string, disabled: boolean) {
  requireSuperadmin(ctx);
  if (!isUuid(userId)) throw new ValidationError("That user does not exist.");
  if (userId === ctx.userId) throw new ValidationError("You cannot disable your own account.");
  if (!(await markUserDisabled(db, userId, disabled))) throw new ValidationError("That user does not exist.");
  // Apps they connected stop at once too; enabling them again does not bring those back.
  if (disabled) await endGrantsOfUser(db, ctx, { userId }, "user disabled");
}
