import { Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listCapabilities } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";

export const metadata: Metadata = { title: "Capabilities" };

export default async function CapabilitiesPage() {
  const { db, ctx } = await requireSignedInPage();
  const rows = await listCapabilities(db, ctx.orgId);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Capabilities</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            The organization&apos;s own tools: small JavaScript functions that run in a sandbox and can call
            any other tool. MCP clients, the REST API and the chat see each as{" "}
            <code>mcp__namespace__action</code>.
          </p>
        </div>
        {isAdminRole(ctx.role) ? (
          <Link href="/capabilities/new" className={buttonClasses()}>
            <Plus className="h-4 w-4" aria-hidden /> New capability
          </Link>
        ) : null}
      </div>
      <Card className="p-0">
        {rows.length === 0 ? (
          <p className="p-5 text-sm text-muted-foreground">
            No capabilities yet.{" "}
            {isAdminRole(ctx.role)
              ? "Create one to give every client a tool of your own."
              : "Owners and admins create them."}
          </p>
        ) : (
          // A table that does not fit scrolls inside its card.
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-muted-foreground">
                <tr>
                  <th className="px-5 py-2 font-medium">Tool</th>
                  <th className="px-3 py-2 font-medium">Calls</th>
                  <th className="px-3 py-2 font-medium">Succeeded</th>
                  <th className="px-3 py-2 font-medium">Average</th>
                  <th className="px-3 py-2 font-medium">Last used</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {rows.map((row) => (
                  <tr key={row.id} data-testid="capability-row">
                    <td className="px-5 py-2">
                      <Link href={`/capabilities/${row.id}`} className="font-mono text-xs hover:underline">
                        {capabilityToolName(row.namespace, row.action)}
                      </Link>
                      {row.description ? (
                        <p className="text-xs text-muted-foreground">{row.description}</p>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">{row.usageCount}</td>
                    <td className="px-3 py-2">
                      {row.usageCount ? `${Math.round((row.successCount / row.usageCount) * 100)}%` : "—"}
                    </td>
                    <td className="px-3 py-2">
                      {row.usageCount ? `${Math.round(row.totalLatencyMs / row.usageCount)} ms` : "—"}
                    </td>
                    <td className="px-3 py-2 text-xs text-muted-foreground">
                      {row.lastUsedAt
                        ? row.lastUsedAt.toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })
                        : "never"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
