import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/user-rows";
import { listOrganizationsForUser } from "@/lib/orgs/memberships";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const { db, ctx } = await requireSignedInPage();
  const [organizations, user] = await Promise.all([
    listOrganizationsForUser(db, ctx.userId),
    findUserById(db, ctx.userId),
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
