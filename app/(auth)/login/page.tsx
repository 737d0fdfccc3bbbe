import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { externalProviders } from "@/lib/auth/providers";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { LoginForm } from "./login-form";
import { ProviderSignInButton } from "./provider-button";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; code?: string }>;
}) {
  const { callbackUrl, error, code } = await searchParams;
  // Back to where sign-in was asked for (an invitation, say), whichever way the person signs in.
  const next = safeRedirectPath(callbackUrl);
  if ((await auth())?.userId) redirect(next.startsWith("/login") ? "/" : next);
  const providers = externalProviders();
  return (
    <div className="grid gap-5">
      <div>
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-muted-foreground">Welcome back to Switchboard.</p>
      </div>
      <LoginForm
        callbackUrl={callbackUrl}
        providerError={
          code === "too_many_attempts"
            ? "Too many sign-in attempts. Try again in a few minutes."
            : error
              ? "That sign-in did not work. Try again."
              : undefined
        }
      />
      {providers.map((provider) => (
        <ProviderSignInButton key={provider.id} id={provider.id} name={provider.name} next={next} />
      ))}
      <p className="text-center text-sm text-muted-foreground">
        New here?{" "}
        <Link
          href={next.startsWith("/invite/") ? `${next}/register` : "/register"}
          className="font-medium text-primary underline underline-offset-2"
        >
          Create an account
        </Link>
      </p>
    </div>
  );
}
