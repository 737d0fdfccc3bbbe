import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StatTable } from "@/components/admin/stat-table";
import { Card } from "@/components/ui/card";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listOrganizationsOverview } from "@/lib/platform/platform-admin";

export const metadata: Metadata = { title: "Organizations" };

/** A superadmin's list of every organization, each leading to its dashboard. */
export default async function OrganizationsPage() {
  const { db, ctx } = await requireSignedInPage();
  if (!ctx.isSuperadmin) notFound();
  const rows = await listOrganizationsOverview(db, ctx);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold">Organizations</h1>
      <Card>
        <StatTable
          caption="Every organization with its members, integrations and tool calls of the last 30 days"
          rows={rows}
          rowKey={(row) => row.id}
          empty="No organizations yet."
          columns={[
            {
              label: "Organization",
              cell: (row) => (
                <Link href={`/admin?org=${row.id}`} className="hover:underline">
                  {row.name}
                </Link>
              ),
            },
            { label: "Members", cell: (row) => row.members, numeric: true },
            { label: "Integrations", cell: (row) => row.integrations, numeric: true },
            { label: "Calls (30 days)", cell: (row) => row.calls30d.toLocaleString("en"), numeric: true },
          ]}
        />
      </Card>
    </div>
  );
}
