import type { InvitationDetails } from "@/lib/invitations/find-invitation";

const article = (role: string) => (role === "member" ? "a" : "an");
const date = (value: Date) =>
  value.toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Which organization, which role, who invited and for which address. */
export function InvitationSummary({ invitation }: { invitation: InvitationDetails }) {
  return (
    <div data-testid="invitation-summary">
      <h1 className="text-xl font-semibold">Join {invitation.organization.name}</h1>
      <p className="mt-2 text-sm">
        {invitation.invitedBy ? <strong>{invitation.invitedBy}</strong> : "An administrator"} invited{" "}
        <strong data-testid="invited-email">{invitation.email}</strong> to join{" "}
        <strong data-testid="invited-organization">{invitation.organization.name}</strong> on Switchboard as{" "}
        {article(invitation.role)} <strong data-testid="invited-role">{invitation.role}</strong>.
      </p>
      <p className="mt-1 text-xs text-muted-foreground">
        The link works once, until{" "}
        <time dateTime={invitation.expiresAt.toISOString()}>{date(invitation.expiresAt)}</time> (UTC).
      </p>
    </div>
  );
}
