import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { AddIntegration } from "@/components/integrations/add-integration";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { getEnv } from "@/lib/env";
import { offeredPresets } from "@/lib/mcp/presets";

export const metadata: Metadata = { title: "Add integration" };

export default async function NewIntegrationPage() {
  const { ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  const entries = offeredPresets().map(({ bundled, demo: _demo, ...entry }) => ({
    ...entry,
    bundled: Boolean(bundled),
  }));
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Add integration</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Pick a server from the catalog, or connect any MCP server by its URL.
        </p>
      </div>
      <AddIntegration catalog={entries} allowStdio={ctx.isSuperadmin && getEnv().MCP_ALLOW_STDIO} />
    </div>
  );
}
