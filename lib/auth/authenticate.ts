import type { Database } from "@/db/client";
import { verifyPassword } from "./password";
import { credentialsSchema } from "./schemas";
import { findUserByEmail, type PublicUser } from "./users";

// A valid hash of a random password, compared when the email is unknown so both paths take as long.
const DUMMY_HASH = "$2b$11$CwTycUXWue0Thq9StjUM0uJ8Z8e1l0Z5W1hQ5p9Y8o8e5bq5yJz6W";

/** Checks an email and password; returns the user, or null for any mismatch (without saying which part). */
export async function authenticate(db: Database, input: unknown): Promise<PublicUser | null> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return null;
  const user = await findUserByEmail(db, parsed.data.email);
  const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || !user.passwordHash || user.disabledAt) return null;
  return { id: user.id, email: user.email, name: user.name, isSuperadmin: user.isSuperadmin };
}
