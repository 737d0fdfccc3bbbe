import type { Role } from "@/db/schema";
import { type MailOutcome, type MailSettings, sendMail } from "@/lib/mail/send-mail";

export type { MailOutcome, MailSettings };

const article = (role: Role) => (role === "member" ? "a" : "an");

/** The plain-text mail that carries an invitation link. */
export function invitationMessage(input: {
  organizationName: string;
  role: Role;
  invitedBy: string | null;
  link: string;
  expiresAt: Date;
}): { subject: string; text: string } {
  const who = input.invitedBy ? `${input.invitedBy} invited you` : "You are invited";
  return {
    subject: `Join ${input.organizationName} on Switchboard`,
    text: [
      "Hello,",
      "",
      `${who} to join ${input.organizationName} on Switchboard as ${article(input.role)} ${input.role}.`,
      "",
      "Open this link to accept (you can create an account there if you have none):",
      input.link,
      "",
      `The link works once and expires on ${input.expiresAt.toUTCString()}.`,
      "If you did not expect this invitation, ignore this mail.",
    ].join("\n"),
  };
}

/**
 * Mails an invitation when SMTP_URL is set. A failure is logged without the link (it grants access) and reported,
 * never thrown: the invitation exists either way and its link is shown to whoever created it.
 */
export function mailInvitation(
  message: { to: string; subject: string; text: string },
  settings: MailSettings,
): Promise<MailOutcome> {
  return sendMail(message, settings, "invitation");
}
