import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { findOrganizationName } from "@/lib/orgs/organizations";
import { invitationMessage, type MailOutcome, type MailSettings, mailInvitation } from "./invitation-mail";
import { createInvitation, type PendingInvitation } from "./invitations";
import { invitationLink } from "./tokens";

/**
 * Creates an invitation and its link, and mails the link when a mail server is configured. The link is returned
 * once, to show to whoever invited; a mail that fails leaves the invitation and the link as they are.
 */
export async function inviteMember(
  db: Database,
  ctx: RequestContext,
  input: { email: unknown; role: unknown },
  options: { origin: string; mail?: MailSettings; ttlHours?: number },
): Promise<{ link: string; invitation: PendingInvitation; organizationName: string; mail: MailOutcome }> {
  const { token, invitation } = await createInvitation(db, ctx, input, { ttlHours: options.ttlHours });
  const link = invitationLink(options.origin, token);
  const organizationName = (await findOrganizationName(db, ctx.orgId)) ?? "";
  const mail = await mailInvitation(
    {
      to: invitation.email,
      ...invitationMessage({
        organizationName,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
        link,
        expiresAt: invitation.expiresAt,
      }),
    },
    options.mail ?? getEnv(),
  );
  return { link, invitation, organizationName, mail };
}
