import type { Env } from "@/lib/env";
import { logger } from "@/lib/logger";

/** Whether a mail went out: no mail server configured, sent, or failed. */
export type MailOutcome = "not_configured" | "sent" | "failed";

export type MailSettings = Pick<Env, "SMTP_URL" | "SMTP_FROM">;

/**
 * Sends a plain-text mail when SMTP_URL is set. A failure is logged by `purpose`, without the message (it may
 * carry a link that grants access), and reported, never thrown.
 */
export async function sendMail(
  message: { to: string; subject: string; text: string },
  settings: MailSettings,
  purpose: string,
): Promise<MailOutcome> {
  if (!settings.SMTP_URL) return "not_configured";
  try {
    const nodemailer = await import("nodemailer");
    // A mail server that does not answer must not hold anyone up for minutes.
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
    logger.warn(`${purpose} mail not sent`, { code, responseCode, command });
    return "failed";
  }
}
