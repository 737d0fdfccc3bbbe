import type { Metadata } from "next";
import Link from "next/link";
import { ClientIdentity } from "@/components/oauth/client-identity";
import { ConsentForm } from "@/components/oauth/consent-form";
import { Alert } from "@/components/ui/alert";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { consentView } from "@/lib/oauth-server/consent-view";

export const metadata: Metadata = { title: "Connect an app" };

/**
 * The authorization server's consent page: after signing in (any way the app offers), the person sees who asks,
 * where it sends them back, and chooses the organization and what the app may use there.
 */
export default async function ConsentPage({ searchParams }: { searchParams: Promise<{ request?: string }> }) {
  const { request = "" } = await searchParams;
  const { db, ctx } = await requireSignedInPage({
    returnTo: `/oauth/consent?request=${encodeURIComponent(request)}`,
  });
  const view = await consentView(db, ctx, request);
  if (!view)
    return (
      <div className="grid gap-4">
        <h1 className="text-xl font-semibold">This request has ended</h1>
        <p className="text-sm text-muted-foreground">
          It expired or was already answered. Go back to the app you were connecting and connect again.
        </p>
        <Link href="/" className="text-sm font-medium text-primary underline underline-offset-2">
          Go to Switchboard
        </Link>
      </div>
    );
  const endpoint =
    view.endpoint === "gateway"
      ? "your organization's tools, resources and prompts"
      : `the integration “${view.endpoint.slice("integrations/".length)}”`;
  return (
    <div className="grid gap-5">
      <ClientIdentity client={view.client} />
      <div className="grid gap-2 text-sm">
        <h1 className="text-xl font-semibold">
          {view.client.name} wants to use {endpoint} as you
        </h1>
        <p className="text-muted-foreground">
          After you allow it, you go back to{" "}
          <strong className="break-all text-foreground">{view.redirectHost}</strong>.
        </p>
        {view.loopbackRedirect ? (
          <Alert tone="info">
            This is a desktop app: it sends you back to this computer. Allow it only if you just started
            connecting it yourself.
          </Alert>
        ) : null}
      </div>
      <ConsentForm view={view} />
      <p className="text-xs text-muted-foreground">
        You can revoke it at any time in Settings → Connected apps. It acts as a member of the organization,
        never as an admin.
      </p>
    </div>
  );
}
