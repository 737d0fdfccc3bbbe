import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";

/** Pages of the authorization server a person sees (consent): the sign-in pages' frame, wider for the choices. */
export default function OAuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted px-4 py-10">
      <Link href="/" className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Switchboard
      </Link>
      <div className="w-full max-w-xl rounded-lg border bg-card p-6 shadow-sm">{children}</div>
    </main>
  );
}
