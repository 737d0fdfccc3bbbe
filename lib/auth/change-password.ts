import { z } from "zod";
import type { Database } from "@/db/client";
import { UnauthorizedError, ValidationError } from "@/lib/errors";
import { endGrantsOfUser } from "@/lib/oauth-server/grants";
import { parseInput } from "@/lib/validation";
import { authenticate } from "./authenticate";
import { hashPassword } from "./password";
import { passwordSchema } from "./schemas";
import { findActiveUserEmail, setPasswordHashEndingSessions } from "./user-rows";

const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Enter your current password." }).min(1, "Enter your current password."),
  newPassword: passwordSchema,
});

/**
 * Replaces a signed-in user's password after checking the current one, and ends every session of theirs (this
 * device's too: it signs in again with the new password) and every app they connected by signing in. Returns the address to sign in with.
 */
export async function changePassword(
  db: Database,
  input: { userId: string; currentPassword: unknown; newPassword: unknown },
  { address }: { address?: string | null } = {},
): Promise<{ email: string }> {
  const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
  const user = await findActiveUserEmail(db, input.userId);
  if (!user) throw new UnauthorizedError("Your session has ended. Sign in again.");
  // Checked as a sign-in is, throttle included, so a borrowed session cannot guess the password here.
  const verified = await authenticate(db, { email: user.email, password: currentPassword }, { address });
  if (verified?.id !== input.userId) {
    const message = "That is not your current password.";
    throw new ValidationError(message, { currentPassword: [message] });
  }
  const passwordHash = await hashPassword(newPassword);
  await setPasswordHashEndingSessions(db, input.userId, passwordHash);
  // As every session ends, so does every app connected by signing in.
  await endGrantsOfUser(db, null, { userId: input.userId }, "password changed");
  return { email: user.email };
}
