import { z } from "zod";
import type { Database } from "@/db/client";
import type { Organization, Role, User } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { addMembership } from "@/lib/orgs/memberships";
import { createOrganization } from "@/lib/orgs/organizations";
import { roleSchema } from "@/lib/orgs/schemas";
import { parseInput } from "@/lib/validation";
import { hashPassword } from "./password";
import { emailSchema, passwordSchema, personNameSchema } from "./schemas";
import { insertUserSerialized, type PublicUser, setActiveOrganization, toPublic } from "./user-rows";

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
  const user = await insertUserSerialized(tx, {
    email: input.email,
    name: input.name ?? input.email.split("@")[0] ?? input.email,
    passwordHash: input.passwordHash,
    superadmin: input.superadmin === true,
  });
  if (!user) throw new EmailTakenError();
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
    await addMembership(tx, { organizationId: input.orgId, userId: user.id, role });
    await setActiveOrganization(tx, user.id, input.orgId);
    return toPublic(user);
  });
}
