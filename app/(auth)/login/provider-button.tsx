"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * Sign-in with a provider through Auth.js's own route (which answers on the app's trusted origin), not a server
 * action, which would build the provider's redirect_uri from the Host the request named.
 */
export function ProviderSignInButton({ id, name, next }: { id: string; name: string; next: string }) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="secondary"
      className="w-full"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signIn(id, { redirectTo: next }).catch(() => setPending(false));
      }}
    >
      {pending ? `Opening ${name}…` : `Continue with ${name}`}
    </Button>
  );
}
