import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { type MailSettings, sendMail } from "@/lib/mail/send-mail";
import { registrationNotice } from "./registration-notice";
import { emailSchema } from "./schemas";
import { claimRegistrationNotice } from "./user-rows";
import { EmailTakenError, registerUser } from "./users";

/**
 * Open registration that does not tell whether an address has an account: a new address gets its account and
 * organization; a taken one gets nothing, and its owner a mail saying so (at most one a day) when a mail server
 * is configured. Both answer the same (the address to sign in with), after the same password hashing; nobody is
 * signed in here. Invalid input is refused first, the same way for either.
 */
export async function registerAccount(
  db: Database,
  input: { name: unknown; email: unknown; password: unknown; organizationName?: unknown },
  options: { origin: string; mail?: MailSettings },
): Promise<{ email: string }> {
  try {
    const { user } = await registerUser(db, input);
    return { email: user.email };
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
  }
  // Taken (so the input was valid): the owner is told in the background, so the answer takes no longer.
  const email = emailSchema.parse(input.email);
  void notifyOwner(db, email, options);
  return { email };
}

async function notifyOwner(db: Database, email: string, options: { origin: string; mail?: MailSettings }) {
  try {
    const settings = options.mail ?? getEnv();
    if (!settings.SMTP_URL) return;
    const owner = await claimRegistrationNotice(db, email);
    if (!owner) return;
    const message = registrationNotice({ name: owner.name, origin: options.origin });
    await sendMail({ to: owner.email, ...message }, settings, "registration notice");
  } catch (error) {
    logger.warn("registration notice not sent", { err: error });
  }
}
