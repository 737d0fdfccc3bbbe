import type { Metadata } from "next";
import Link from "next/link";
import { forbidden } from "next/navigation";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { getEnv } from "@/lib/env";
import { InviteForm } from "./invite-form";

export const metadata: Metadata = { title: "Invite people" };

const validity = (hours: number) =>
  hours % 24 === 0
    ? `${hours / 24} ${hours === 24 ? "day" : "days"}`
    : `${hours} ${hours === 1 ? "hour" : "hours"}`;

export default async function InvitePage() {
  const { ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  const { INVITATION_TTL_HOURS, SMTP_URL } = getEnv();
  return (
    <div className="grid gap-6">
      <div>
        <Link href="/settings/members" className="text-sm text-muted-foreground hover:underline">
          ← Members
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">Invite people</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          An invitation is a link for one email address. Whoever opens it creates an account with that address
          (or signs in with it) and joins with the role you choose.
        </p>
      </div>
      <Card>
        <CardTitle>New invitation</CardTitle>
        <CardDescription>
          The link works once and for {validity(INVITATION_TTL_HOURS)}.{" "}
          {SMTP_URL ? "It is also mailed to them." : "Send it to them yourself, in a chat or a mail."}
        </CardDescription>
        <div className="mt-4">
          <InviteForm canInviteOwner={ctx.role === "owner"} />
        </div>
      </Card>
    </div>
  );
}
