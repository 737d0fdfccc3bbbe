import { randomBytes } from "node:crypto";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";
import { findUserByEmail, registerUser } from "./users";

/**
 * The local user for someone signing in through OAuth/OIDC: found by verified email, or registered with their
 * own organization like any new user. Returns null when the provider gave no email or the user is disabled.
 */
export async function userForExternalAccount(
  db: Database,
  profile: { email?: string | null; name?: string | null; provider: string },
): Promise<string | null> {
  const email = profile.email?.trim().toLowerCase();
  if (!email) return null;
  const existing = await findUserByEmail(db, email);
  if (existing) return existing.disabledAt ? null : existing.id;
  // The account gets a random password nobody knows; the person signs in through the provider.
  const { user } = await registerUser(db, {
    name: profile.name?.trim() || email.split("@")[0],
    email,
    password: randomBytes(24).toString("base64url"),
  });
  logger.info("user registered through external sign-in", { userId: user.id, provider: profile.provider });
  return user.id;
}
