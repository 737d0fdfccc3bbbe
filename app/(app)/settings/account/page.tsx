import type { Metadata } from "next";
import { Alert } from "@/components/ui/alert";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/user-rows";
import { PasswordForm } from "./password-form";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<{ password?: string }>;
}) {
  const { db, ctx } = await requireSignedInPage();
  const [user, { password }] = await Promise.all([findUserById(db, ctx.userId), searchParams]);
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Account</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Signed in as {user?.email}. Signing out, here or anywhere, signs you out on every device.
        </p>
      </div>
      {password === "changed" ? (
        <Alert tone="success">Your password was changed. Every other device was signed out.</Alert>
      ) : null}
      <Card>
        <CardTitle>Password</CardTitle>
        <CardDescription>A new password signs you out everywhere else.</CardDescription>
        <PasswordForm email={user?.email ?? ""} />
      </Card>
    </div>
  );
}
