import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";
import { cn } from "@/lib/cn";

/** The frame of the pages met outside the app (sign-in, registration, consent): the logo and one card. */
export function CenteredCard({ wide = false, children }: { wide?: boolean; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted px-4 py-10">
      <Link href="/" className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Switchboard
      </Link>
      <div className={cn("w-full rounded-lg border bg-card p-6 shadow-sm", wide ? "max-w-xl" : "max-w-sm")}>
        {children}
      </div>
    </main>
  );
}
