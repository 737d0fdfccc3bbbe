"use client";

import { Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import type { UserOrganization } from "@/lib/orgs/memberships";
import { navItems } from "./nav-items";
import { OrgSwitcher } from "./org-switcher";
import { UserMenu } from "./user-menu";

export function AppShell({
  user,
  organizations,
  activeOrgId,
  role,
  children,
}: {
  user: { name: string; email: string };
  organizations: UserOrganization[];
  activeOrgId: string;
  role: string;
  children: ReactNode;
}) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  // Close the phone-width drawer after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => setOpen(false), [pathname]);
  const isAdmin = role === "owner" || role === "admin";
  // The chat fills the window and scrolls inside (its messages only); every other page scrolls as a document.
  const fillsWindow = pathname === "/chat" || pathname.startsWith("/chat/");

  const sidebar = (
    <nav aria-label="Main" className="grid gap-1">
      {navItems
        .filter((item) => !item.adminOnly || isAdmin)
        .map((item) => {
          const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm",
                active
                  ? "bg-muted font-medium"
                  : "text-muted-foreground hover:bg-muted hover:text-foreground",
              )}
            >
              <item.icon className="h-4 w-4" aria-hidden />
              {item.label}
            </Link>
          );
        })}
    </nav>
  );

  return (
    <div className={cn("flex", fillsWindow ? "h-dvh overflow-hidden" : "min-h-dvh")}>
      {/* The first stop of the keyboard: past the navigation, straight to the page. */}
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside className="hidden w-60 shrink-0 flex-col gap-4 border-r bg-card p-4 md:flex">
        <Link href="/" className="flex items-center gap-2 px-1 font-semibold">
          <Logo /> Switchboard
        </Link>
        <OrgSwitcher organizations={organizations} activeOrgId={activeOrgId} />
        {sidebar}
      </aside>

      {open ? (
        <div className="fixed inset-0 z-40 md:hidden" role="dialog" aria-modal="true" aria-label="Navigation">
          <button
            type="button"
            aria-label="Close menu"
            className="absolute inset-0 bg-black/40"
            onClick={() => setOpen(false)}
          />
          <div className="absolute inset-y-0 left-0 flex w-72 max-w-[85%] flex-col gap-4 bg-card p-4 shadow-lg">
            <div className="flex items-center justify-between">
              <span className="flex items-center gap-2 font-semibold">
                <Logo /> Switchboard
              </span>
              <Button variant="ghost" size="icon" aria-label="Close menu" onClick={() => setOpen(false)}>
                <X className="h-4 w-4" />
              </Button>
            </div>
            <OrgSwitcher organizations={organizations} activeOrgId={activeOrgId} />
            {sidebar}
          </div>
        </div>
      ) : null}

      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-card px-4">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open menu"
            onClick={() => setOpen(true)}
          >
            <Menu className="h-5 w-5" />
          </Button>
          <span className="truncate text-sm text-muted-foreground md:hidden" data-testid="header-org">
            {organizations.find((org) => org.id === activeOrgId)?.name}
          </span>
          <div className="ml-auto">
            <UserMenu user={user} role={role} />
          </div>
        </header>
        <main
          id="main"
          tabIndex={-1}
          className={cn(
            "w-full flex-1 outline-none",
            fillsWindow ? "flex min-h-0 flex-col" : "mx-auto max-w-5xl p-4 md:p-8",
          )}
        >
          {children}
        </main>
      </div>
    </div>
  );
}
