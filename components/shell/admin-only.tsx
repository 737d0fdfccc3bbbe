"use client";

import { usePathname } from "next/navigation";
import { PageMessage } from "./page-message";

type AdminOnlyPage = { what: string; back: { href: string; label: string } };

// `forbidden.tsx` takes no props, so each admin-only page's words are found by its path.
const ADMIN_ONLY_PAGES: Record<string, AdminOnlyPage> = {
  "/admin": { what: "The dashboard", back: { href: "/", label: "Go to the overview" } },
  "/agents/new": { what: "Creating an agent", back: { href: "/agents", label: "Back to agents" } },
  "/capabilities/new": {
    what: "Creating a capability",
    back: { href: "/capabilities", label: "Back to capabilities" },
  },
  "/integrations/new": {
    what: "Adding an integration",
    back: { href: "/integrations", label: "Back to integrations" },
  },
  "/settings/api-keys": { what: "Managing API keys", back: { href: "/connect", label: "Connect a client" } },
  "/settings/models": {
    what: "Choosing the chat's models",
    back: { href: "/chat", label: "Go to the chat" },
  },
  "/settings/members/invite": {
    what: "Inviting people",
    back: { href: "/settings/members", label: "Back to members" },
  },
};

const OVERVIEW = { href: "/", label: "Go to the overview" };

/**
 * What a member sees on a page only owners and admins may use (answered 403): why, in the app's shell, with the
 * way back, rather than being sent elsewhere without a word.
 */
export function AdminOnly() {
  const page = ADMIN_ONLY_PAGES[usePathname()];
  const links = page && page.back.href !== OVERVIEW.href ? [page.back, OVERVIEW] : [OVERVIEW];
  return (
    <PageMessage title="Only owners and admins can do this" links={links}>
      {page?.what ?? "This page"} is for the organization&apos;s owners and admins. Ask one of them if you
      need it.
    </PageMessage>
  );
}
