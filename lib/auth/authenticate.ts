import type { Database } from "@/db/client";
import { AppError } from "@/lib/errors";
import { verifyPassword } from "./password";
import { credentialsSchema } from "./schemas";
import { beginSignInAttempt, formatWait, signInSucceeded } from "./sign-in-throttle";
import { findUserByEmail, type PublicUser } from "./user-rows";

/** A user who just proved who they are, with the session version their new session will carry. */
export type AuthenticatedUser = PublicUser & { sessionVersion: number };

// A valid hash of a random password, compared when the email is unknown so both paths take as long.
const DUMMY_HASH = "$2b$11$CwTycUXWue0Thq9StjUM0uJ8Z8e1l0Z5W1hQ5p9Y8o8e5bq5yJz6W";

/** Too many sign-in attempts for this account or from this address: refused without looking at the password. */
export class SignInThrottledError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("rate_limit:sign_in", `Too many sign-in attempts. Try again in ${formatWait(retryAfterSeconds)}.`, {
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Checks an email and password; returns the user, or null for any mismatch (without saying which part). Every
 * attempt counts against the account and the client's address (see sign-in-throttle.ts); once either is locked,
 * throws SignInThrottledError without checking the password. `now` is for tests.
 */
export async function authenticate(
  db: Database,
  input: unknown,
  { address, now }: { address?: string | null; now?: Date } = {},
): Promise<AuthenticatedUser | null> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const verdict = await beginSignInAttempt(db, { email, address }, now);
  if (!verdict.allowed) throw new SignInThrottledError(verdict.retryAfterSeconds);
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || !user.passwordHash || user.disabledAt) return null;
  await signInSucceeded(db, { email, address });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    isSuperadmin: user.isSuperadmin,
    sessionVersion: user.sessionVersion,
  };
}
