import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { memberships, type Organization, organizations, type Role, users } from "@/db/schema";

// Every query of `memberships` lives here; `db` may be a transaction. Functions that read a member's person or
// organization join that table in the same statement.

/** A new membership; the caller makes sure the person is not a member yet. */
export async function addMembership(
  db: Database,
  input: { organizationId: string; userId: string; role: Role },
): Promise<void> {
  await db.insert(memberships).values(input);
}

/** Adds the membership unless the person is already a member; returns whether it was added. */
export async function addMembershipIfAbsent(
  db: Database,
  input: { organizationId: string; userId: string; role: Role },
): Promise<boolean> {
  const joined = await db
    .insert(memberships)
    .values(input)
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  return joined.length > 0;
}

/** Whether anyone belongs to the organization yet. */
export async function hasMembers(db: Database, orgId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, orgId))
    .limit(1);
  return row !== undefined;
}

/** The number of members of the organization whose id `orgId` names, as a column of a query on organizations. */
export function memberCountOf(orgId: SQL) {
  return sql<number>`(select count(*) from memberships m where m.organization_id = ${orgId})`.mapWith(Number);
}

export type UserOrganization = Pick<Organization, "id" | "slug" | "name"> & { role: Role };

/** Every organization the user belongs to, oldest membership first. */
export function listOrganizationsForUser(db: Database, userId: string): Promise<UserOrganization[]> {
  return db
    .select({
      id: organizations.id,
      slug: organizations.slug,
      name: organizations.name,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}

/** The user's role in the organization, or undefined when they are not a member. */
export async function findMembershipRole(
  db: Database,
  { userId, orgId }: { userId: string; orgId: string },
): Promise<{ role: Role } | undefined> {
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, orgId)));
  return membership;
}

/** The organization's members with their email and name, oldest membership first. */
export function listMembersWithUsers(db: Database, orgId: string) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, orgId))
    .orderBy(asc(memberships.createdAt));
}

/** The id of the organization's member whose email (compared in lower case) is `email`, if any. */
export async function findMemberIdByEmail(
  db: Database,
  orgId: string,
  email: string,
): Promise<{ userId: string } | undefined> {
  const [member] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, orgId), sql`lower(${users.email}) = ${email}`));
  return member;
}

/** The memberships of the given users, each with its organization's name. */
export function listMembershipsOfUsers(db: Database, userIds: string[]) {
  return db
    .select({ userId: memberships.userId, role: memberships.role, orgName: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(inArray(memberships.userId, userIds));
}

/** The organization's owners' ids, locked for the rest of the transaction. */
export function lockOwnerIds(tx: Database, orgId: string): Promise<{ userId: string }[]> {
  return tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, orgId), eq(memberships.role, "owner")))
    .for("update");
}

/** The member's role, locked for the rest of the transaction; undefined when they are not a member. */
export async function lockMembershipRole(
  tx: Database,
  orgId: string,
  userId: string,
): Promise<{ role: Role } | undefined> {
  const [membership] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, userId)))
    .for("update");
  return membership;
}

/** Sets the member's role in the organization. */
export async function setMembershipRole(
  db: Database,
  { orgId, userId, role }: { orgId: string; userId: string; role: Role },
): Promise<void> {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, userId)));
}

/** Ends the user's membership of the organization. */
export async function deleteMembership(db: Database, orgId: string, userId: string): Promise<void> {
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, userId)));
}
