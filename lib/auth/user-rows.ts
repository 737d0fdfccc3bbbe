import { and, asc, count, eq, ilike, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { memberships, type User, users } from "@/db/schema";

/*
 * The one owner of the users table: every query of it is here, and it imports nothing of the app, so the
 * organizations, invitations and the request context use it without importing each other. `db` may be a
 * transaction. The functions that read enabled users only say so in their names (`Active`).
 */

/** The `set` value that ends every session of a user: tokens carry the old version, which no longer matches. */
const nextSessionVersion = () => sql`${users.sessionVersion} + 1`;

// Serializes user creation so "the first user becomes superadmin" holds under concurrent sign-ups.
const USER_CREATION_LOCK = 7_311_001;

/** What may be shown of a user. */
export type PublicUser = Pick<User, "id" | "email" | "name" | "isSuperadmin">;

export const toPublic = ({ id, email, name, isSuperadmin }: User): PublicUser => ({
  id,
  email,
  name,
  isSuperadmin,
});

/**
 * Adds a user, one creation at a time (so "the first user becomes superadmin" holds under concurrent sign-ups):
 * undefined when the address is taken. Inside the caller's transaction, which holds the lock until it ends.
 */
export async function insertUserSerialized(
  tx: Database,
  input: { email: string; name: string; passwordHash: string | null; superadmin: boolean },
): Promise<User | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(${USER_CREATION_LOCK})`);
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing) return undefined;
  const [{ value: userCount } = { value: 0 }] = await tx.select({ value: count() }).from(users);
  const [user] = await tx
    .insert(users)
    .values({
      email: input.email,
      name: input.name,
      passwordHash: input.passwordHash,
      isSuperadmin: input.superadmin || userCount === 0,
    })
    .returning();
  if (!user) throw new Error("insert returned no row");
  return user;
}

export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user;
}

export async function findUserById(db: Database, id: string): Promise<PublicUser | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user ? toPublic(user) : undefined;
}

/** The user's name, or undefined when there is no such user. */
export async function findUserName(db: Database, id: string): Promise<string | undefined> {
  return (await db.select({ name: users.name }).from(users).where(eq(users.id, id)))[0]?.name;
}

/** The email of the user if they exist and are not disabled. */
export async function findActiveUserEmail(db: Database, id: string): Promise<{ email: string } | undefined> {
  const [user] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.disabledAt)));
  return user;
}

/**
 * Whether the user is superadmin, if they exist, are not disabled and (given a session's version) that session is
 * still current: one select answers all three.
 */
export async function findActiveSessionUser(
  db: Database,
  userId: string,
  { sessionVersion }: { sessionVersion?: number } = {},
): Promise<{ isSuperadmin: boolean } | undefined> {
  const [user] = await db
    .select({ isSuperadmin: users.isSuperadmin })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        isNull(users.disabledAt),
        sessionVersion === undefined ? undefined : eq(users.sessionVersion, sessionVersion),
      ),
    );
  return user;
}

/**
 * The user (if not disabled) with each of their memberships, oldest first, in one round trip: one row per
 * membership, or a single row with a null organization when they have none; no rows when disabled or unknown.
 */
export function listActiveUserMemberships(db: Database, userId: string) {
  return db
    .select({
      isSuperadmin: users.isSuperadmin,
      activeOrganizationId: users.activeOrganizationId,
      orgId: memberships.organizationId,
      role: memberships.role,
    })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .orderBy(asc(memberships.createdAt));
}

/**
 * The user's id if they exist and are not disabled, locked for the rest of the transaction so a user being
 * disabled right now cannot slip anything in behind the switch.
 */
export async function lockActiveUserId(tx: Database, id: string): Promise<{ id: string } | undefined> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.disabledAt)))
    .for("update");
  return user;
}

/** Makes the organization the user's active one; the caller checks the membership. */
export async function setActiveOrganization(db: Database, userId: string, orgId: string): Promise<void> {
  await db.update(users).set({ activeOrganizationId: orgId }).where(eq(users.id, userId));
}

/** Clears the user's active organization if it is `orgId`; they fall back to another one at their next request. */
export async function clearActiveOrganization(db: Database, userId: string, orgId: string): Promise<void> {
  await db
    .update(users)
    .set({ activeOrganizationId: sql`null` })
    .where(and(eq(users.id, userId), eq(users.activeOrganizationId, orgId)));
}

/** Replaces the user's password hash and ends every session of theirs. */
export async function setPasswordHashEndingSessions(
  db: Database,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, sessionVersion: nextSessionVersion() })
    .where(eq(users.id, userId));
}

/**
 * Ends every session of a user, on every device. With `ifVersion` (the version of the token signing out), only
 * while that token is still current: a token already ended cannot end the sessions that came after it.
 * Returns whether sessions were ended.
 */
export async function endUserSessions(
  db: Pick<Database, "update">,
  { userId, ifVersion }: { userId: string; ifVersion?: number },
): Promise<boolean> {
  const ended = await db
    .update(users)
    .set({ sessionVersion: nextSessionVersion() })
    .where(
      and(eq(users.id, userId), ifVersion === undefined ? undefined : eq(users.sessionVersion, ifVersion)),
    )
    .returning({ id: users.id });
  return ended.length > 0;
}

/**
 * Disables the user (ending every session of theirs) or enables them again; sessions from before the disabling
 * stay ended. Returns whether the user exists.
 */
export async function markUserDisabled(db: Database, userId: string, disabled: boolean): Promise<boolean> {
  const [updated] = await db
    .update(users)
    .set(disabled ? { disabledAt: new Date(), sessionVersion: nextSessionVersion() } : { disabledAt: null })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated !== undefined;
}

/**
 * Claims the day's one registration notice for the address of an enabled user (atomically, so repeated attempts
 * cannot flood its owner's inbox); returns where to send it, or undefined when none is due.
 */
export async function claimRegistrationNotice(
  db: Database,
  email: string,
): Promise<{ email: string; name: string } | undefined> {
  const [owner] = await db
    .update(users)
    .set({ registrationNoticeAt: sql`now()` })
    .where(
      and(
        eq(users.email, email),
        isNull(users.disabledAt),
        or(isNull(users.registrationNoticeAt), lt(users.registrationNoticeAt, sql`now() - interval '1 day'`)),
      ),
    )
    .returning({ email: users.email, name: users.name });
  return owner;
}

/** Users whose email or name contains `query` (all of them for an empty one), by email, at most 50. */
export function searchUsersByEmailOrName(db: Database, query: string) {
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      isSuperadmin: users.isSuperadmin,
      disabledAt: users.disabledAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(query ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
    .orderBy(asc(users.email))
    .limit(50);
}
