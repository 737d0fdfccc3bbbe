import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { RegisterForm } from "@/app/(auth)/register/register-form";
import { auth } from "@/lib/auth/nextauth";
import { databaseForRequest } from "@/lib/auth/request-context";
import { findInvitationByToken } from "@/lib/invitations/find-invitation";
import { InvitationUnavailable } from "../invitation-unavailable";

export const metadata: Metadata = { title: "Create an account", referrer: "no-referrer" };

/** The registration form for an invited person: their address is the invited one, and they join at once. */
export default async function InvitationRegisterPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  if ((await auth())?.userId) redirect(`/invite/${token}`);
  const invitation = await findInvitationByToken(databaseForRequest(), token);
  if (!invitation) return <InvitationUnavailable reason="invalid" />;
  if (invitation.status !== "pending") return <InvitationUnavailable reason={invitation.status} />;
  return (
    <div className="grid gap-5">
      <div>
        <h1 className="text-xl font-semibold">Create your account</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          You join {invitation.organization.name} as {invitation.role === "member" ? "a" : "an"}{" "}
          {invitation.role} as soon as the account exists.
        </p>
      </div>
      <RegisterForm invitation={{ token, email: invitation.email }} />
      <p className="text-center text-sm text-muted-foreground">
        Already have an account with {invitation.email}?{" "}
        <Link
          href={`/login?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}
          className="font-medium text-primary underline underline-offset-2"
        >
          Sign in
        </Link>
      </p>
    </div>
  );
}
