import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Role, users } from "@/db/schema";
import { type RequestContext, resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { acceptInvitation } from "@/lib/invitations/accept-invitation";
import { createInvitation } from "@/lib/invitations/invitations";

/** Registers one user per name, each in an organization of their own, and returns their request contexts. */
export async function registerOwners(db: Database, ...names: string[]): Promise<UserContext[]> {
  const contexts: UserContext[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const { user } = await registerUser(db, {
      name,
      email: `${lower}@example.com`,
      password: `password ${lower}`,
    });
    contexts.push(await resolveUserContext(db, { userId: user.id }));
  }
  return contexts;
}

/**
 * Brings a registered user into the context's organization the one way the app allows: invited by an owner or
 * admin, and accepting. Joining makes the organization the user's active one.
 */
export async function joinByInvitation(
  db: Database,
  ctx: RequestContext,
  input: { email: string; role: Role },
): Promise<{ userId: string; email: string; role: Role }> {
  const { token } = await createInvitation(db, ctx, input);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (!user) throw new Error(`${input.email} has no account`);
  const joined = await acceptInvitation(db, { token, userId: user.id });
  return { userId: joined.userId, email: input.email, role: joined.role };
}

/**
 * Ola and Odo, owners of an organization each, and Mo, a member of Ola's: the three a chat test needs to show
 * what a member, the organization's owner and another organization may see.
 */
export async function registerOwnerMemberAndOther(
  db: Database,
): Promise<{ owner: UserContext; member: UserContext; other: UserContext }> {
  const [owner, other] = (await registerOwners(db, "Ola", "Odo")) as [UserContext, UserContext];
  const { user } = await registerUser(db, { name: "Mo", email: "mo@example.com", password: "password mo" });
  await joinByInvitation(db, owner, { email: "mo@example.com", role: "member" });
  const member = await resolveUserContext(db, { userId: user.id, preferredOrgId: owner.orgId });
  return { owner, member, other };
}
