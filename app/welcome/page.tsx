import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { signOutAction } from "@/app/(app)/actions";
import { CreateOrganizationForm } from "@/components/forms/create-organization-form";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { auth } from "@/lib/auth/nextauth";

export const metadata: Metadata = { title: "Welcome" };

/** Where a signed-in person without any organization lands: create one, or wait to be added. */
export default async function WelcomePage() {
  if (!(await auth())?.userId) redirect("/login");
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted px-4">
      <span className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Switchboard
      </span>
      <div className="grid w-full max-w-sm gap-4 rounded-lg border bg-card p-6">
        <div>
          <h1 className="text-xl font-semibold">You are not in any organization</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Create one, or ask an owner or admin to add you by your email.
          </p>
        </div>
        <CreateOrganizationForm />
        <form action={signOutAction}>
          <Button type="submit" variant="ghost" className="w-full">
            Sign out
          </Button>
        </form>
      </div>
    </main>
  );
}
