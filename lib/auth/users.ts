import { count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { memberships, type Organization, type Role, type User, users } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { createOrganization } from "@/lib/orgs/organizations";
import { roleSchema } from "@/lib/orgs/schemas";
import { parseInput } from "@/lib/validation";
import { hashPassword } from "./password";
import { emailSchema, passwordSchema, personNameSchema } from "./schemas";

export type PublicUser = Pick<User, "id" | "email" | "name" | "isSuperadmin">;

const toPublic = ({ id, email, name, isSuperadmin }: User): PublicUser => ({ id, email, name, isSuperadmin });

// Serializes user creation so "the first user becomes superadmin" holds under concurrent sign-ups.
const USER_CREATION_LOCK = 7_311_001;

const newUserSchema = z.object({
  name: personNameSchema.optional(),
  email: emailSchema,
  password: passwordSchema.optional(),
  superadmin: z.boolean().optional(),
});

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The address is taken; callers that must not reveal that (open registration) catch this one. */
export class EmailTakenError extends ConflictError {
  constructor() {
    const message = "An account with this email already exists. Sign in instead.";
    super(message, { email: [message] });
  }
}

type NewUser = Omit<z.output<typeof newUserSchema>, "password"> & { passwordHash: string | null };

/** Hashed before any query: a taken address then costs as long as a free one, and the lock is held briefly. */
async function withPasswordHash(input: z.output<typeof newUserSchema>): Promise<NewUser> {
  const { password, ...rest } = input;
  return { ...rest, passwordHash: password ? await hashPassword(password) : null };
}

async function insertUser(tx: Tx, input: NewUser): Promise<User> {
  await tx.execute(sql`select pg_advisory_xact_lock(${USER_CREATION_LOCK})`);
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing) throw new EmailTakenError();
  const [{ value: userCount } = { value: 0 }] = await tx.select({ value: count() }).from(users);
  const [user] = await tx
    .insert(users)
    .values({
      email: input.email,
      name: input.name ?? input.email.split("@")[0] ?? input.email,
      passwordHash: input.passwordHash,
      isSuperadmin: input.superadmin === true || userCount === 0,
    })
    .returning();
  if (!user) throw new Error("insert returned no row");
  return user;
}

/**
 * Registers a person: their account and their own organization, as its owner, all or nothing.
 * The first user of an empty installation is also superadmin.
 */
export async function registerUser(
  db: Database,
  input: { name: unknown; email: unknown; password: unknown; organizationName?: unknown },
): Promise<{ user: PublicUser; organization: Organization }> {
  const parsed = parseInput(
    newUserSchema.extend({ name: personNameSchema, password: passwordSchema }),
    input,
  );
  const orgName =
    typeof input.organizationName === "string" && input.organizationName.trim() !== ""
      ? input.organizationName
      : `${parsed.name}'s organization`;
  const account = await withPasswordHash(parsed);
  return db.transaction(async (tx) => {
    const user = await insertUser(tx, account);
    const organization = await createOrganization(tx, { ownerId: user.id, name: orgName });
    return { user: toPublic(user), organization };
  });
}

/** An account with no organization yet: someone invited, who joins through the invitation's page. */
export async function createUserWithoutOrganization(
  db: Database,
  input: { email: unknown; name?: unknown; password?: unknown },
): Promise<PublicUser> {
  const account = await withPasswordHash(parseInput(newUserSchema, input));
  return db.transaction(async (tx) => toPublic(await insertUser(tx, account)));
}

/** Creates a user in an existing organization (operator CLI and sign-in providers). */
export async function createUserInOrganization(
  db: Database,
  input: {
    email: unknown;
    password?: unknown;
    name?: unknown;
    orgId: string;
    role?: Role;
    superadmin?: boolean;
  },
): Promise<PublicUser> {
  const parsed = parseInput(newUserSchema, input);
  const role = parseInput(roleSchema, input.role ?? "member");
  const account = await withPasswordHash(parsed);
  return db.transaction(async (tx) => {
    const user = await insertUser(tx, account);
    await tx.insert(memberships).values({ organizationId: input.orgId, userId: user.id, role });
    await tx.update(users).set({ activeOrganizationId: input.orgId }).where(eq(users.id, user.id));
    return toPublic(user);
  });
}

export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user;
}

export async function findUserById(db: Database, id: string): Promise<PublicUser | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user ? toPublic(user) : undefined;
}
