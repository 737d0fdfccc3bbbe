import type { Database } from "@/db/client";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";

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
