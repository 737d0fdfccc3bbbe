import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db/client";
import { requirePageContext } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/users";
import { listOrganizationsForUser } from "@/lib/orgs/organizations";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const ctx = await requirePageContext();
  const [organizations, user] = await Promise.all([
    listOrganizationsForUser(getDb(), ctx.userId),
    findUserById(getDb(), ctx.userId),
  ]);
  return (
    <AppShell
      user={{ name: user?.name ?? "", email: user?.email ?? "" }}
      organizations={organizations}
      activeOrgId={ctx.orgId}
      role={ctx.role}
    >
      {children}
    </AppShell>
  );
}
