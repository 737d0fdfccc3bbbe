import { randomBytes } from "node:crypto";
import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { hasPendingInvitation } from "@/lib/invitations/find-invitation";
import { logger } from "@/lib/logger";
import { findUserByEmail } from "./user-rows";
import { createUserWithoutOrganization, registerUser } from "./users";

/** The local user an external sign-in resolves to, with the session version their new session carries. */
export interface ExternalSignIn {
  userId: string;
  sessionVersion: number;
}

/**
 * The local user for someone signing in through OAuth/OIDC: found by verified email, or registered. Someone
 * invited gets an account with no organization of their own (the invitation's page joins them); anyone else gets
 * their own organization like any new user, unless registration is closed. Returns null when the provider gave
 * no email, the user is disabled, or nobody may register them.
 */
export async function userForExternalAccount(
  db: Database,
  profile: { email?: string | null; name?: string | null; provider: string },
): Promise<ExternalSignIn | null> {
  const email = profile.email?.trim().toLowerCase();
  if (!email) return null;
  const existing = await findUserByEmail(db, email);
  if (existing)
    return existing.disabledAt ? null : { userId: existing.id, sessionVersion: existing.sessionVersion };
  const invited = await hasPendingInvitation(db, email);
  if (!invited && !getEnv().ALLOW_REGISTRATION) {
    logger.info("sign-in refused", { reason: "registration closed", provider: profile.provider });
    return null;
  }
  // The account gets a random password nobody knows; the person signs in through the provider.
  const account = {
    name: profile.name?.trim() || email.split("@")[0],
    email,
    password: randomBytes(24).toString("base64url"),
  };
  const user = invited
    ? await createUserWithoutOrganization(db, account)
    : (await registerUser(db, account)).user;
  logger.info("user registered through external sign-in", {
    userId: user.id,
    provider: profile.provider,
    invited,
  });
  // A new account's sessions start at the column's default.
  return { userId: user.id, sessionVersion: 0 };
}
