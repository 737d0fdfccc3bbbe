import { inviteMember } from "@/lib/invitations/invite-member";
import { type CliCommand, requireOption } from "../command";
import { operatorContext } from "../operator-context";
import { operatorOrigin } from "../operator-origin";

const mailNote = {
  not_configured: "",
  sent: "\nIt was also mailed.",
  failed: "\nMailing it failed (see the log); the link works all the same.",
} as const;

export const inviteCreate: CliCommand = {
  name: "invite:create",
  usage: "invite:create --org <slug> --email <email> [--role member|admin|owner]",
  description:
    "Invite someone to an organization by email; the single-use link is printed once (and mailed when SMTP_URL is set). Links use AUTH_URL, else http://localhost:PORT.",
  options: { org: { type: "string" }, email: { type: "string" }, role: { type: "string" } },
  async run(db, { values }, io) {
    const slug = requireOption(values, "org");
    const ctx = await operatorContext(db, slug);
    const { link, invitation, mail } = await inviteMember(
      db,
      ctx,
      { email: requireOption(values, "email"), role: values.role ?? "member" },
      { origin: operatorOrigin() },
    );
    const expiresAt = invitation.expiresAt.toISOString();
    io.print(
      `${link}\nInvitation for ${invitation.email} as ${invitation.role} of ${slug}, valid once until ${expiresAt}. (Pass it on now: it is not shown again.)${mailNote[mail]}`,
      {
        id: invitation.id,
        organization: slug,
        email: invitation.email,
        role: invitation.role,
        expiresAt,
        mail,
        link,
      },
    );
  },
};
