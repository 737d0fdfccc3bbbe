import type { Role } from "@/db/schema";
import type { Env } from "@/lib/env";
import { logger } from "@/lib/logger";

/** Whether the link also went out by mail: no mail server configured, sent, or failed (the link still works). */
export type MailOutcome = "not_configured" | "sent" | "failed";

export type MailSettings = Pick<Env, "SMTP_URL" | "SMTP_FROM">;

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
export async function mailInvitation(
  message: { to: string; subject: string; text: string },
  settings: MailSettings,
): Promise<MailOutcome> {
  if (!settings.SMTP_URL) return "not_configured";
  try {
    const nodemailer = await import("nodemailer");
    // A mail server that does not answer must not hold up the person inviting for minutes.
    const transport = nodemailer.createTransport(settings.SMTP_URL, {
      from: settings.SMTP_FROM,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail(message);
    } finally {
      transport.close();
    }
    return "sent";
  } catch (error) {
    const { code, responseCode, command } = (error ?? {}) as {
      code?: unknown;
      responseCode?: unknown;
      command?: unknown;
    };
    logger.warn("invitation mail not sent", { code, responseCode, command });
    return "failed";
  }
}
