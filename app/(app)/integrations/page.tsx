import { Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { HealthStrip } from "@/components/health/health-strip";
import { IntegrationStateLine } from "@/components/integrations/integration-state";
import { OAuthStatusBadge } from "@/components/integrations/oauth-connection";
import { StatusBadge } from "@/components/integrations/status-badge";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { recentHealthByIntegration } from "@/lib/health/health-round";
import { listIntegrations } from "@/lib/mcp/integrations/list-integrations";
import { plural } from "@/lib/plural";

export const metadata: Metadata = { title: "Integrations" };

export default async function IntegrationsPage({
  searchParams,
}: {
  searchParams: Promise<{ oauth?: string }>;
}) {
  const { db, ctx } = await requireSignedInPage();
  // The provider sent the browser back with nothing that leads to a connection in progress.
  const lostAuthorization = (await searchParams).oauth !== undefined;
  const [integrations, health] = await Promise.all([
    listIntegrations(db, ctx),
    recentHealthByIntegration(db, ctx.orgId),
  ]);
  const canManage = isAdminRole(ctx.role);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Integrations</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            MCP servers connected to this organization. Their tools work in chat, over REST and through the
            MCP endpoint.
          </p>
        </div>
        {canManage ? (
          <Link href="/integrations/new" className={buttonClasses()}>
            <Plus className="h-4 w-4" aria-hidden /> Add integration
          </Link>
        ) : null}
      </div>
      {lostAuthorization ? (
        <Alert>
          The provider sent the browser back without an authorization this app started. Open the integration
          and connect again.
        </Alert>
      ) : null}
      {integrations.length === 0 ? (
        <Card className="text-center">
          <p className="font-medium">No integrations yet</p>
          <p className="mt-1 text-sm text-muted-foreground">
            {canManage
              ? "Add one from the catalog (the bundled reference servers work offline) or connect your own MCP server."
              : "Ask an owner or admin of this organization to connect MCP servers."}
          </p>
        </Card>
      ) : (
        <Card className="p-0">
          <ul className="divide-y" aria-label="Integrations">
            {integrations.map((integration) => (
              <li key={integration.id} data-testid="integration-row">
                <Link
                  href={`/integrations/${integration.id}`}
                  className="flex flex-wrap items-center gap-3 px-5 py-4 hover:bg-muted"
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{integration.name}</p>
                    <p className="truncate text-xs text-muted-foreground">
                      {integration.transport === "stdio" ? integration.command : integration.url} ·{" "}
                      {integration.transport}
                      {integration.counts
                        ? ` · ${plural(integration.counts.tools, "tool")}, ${plural(integration.counts.resources, "resource")}, ${plural(integration.counts.prompts, "prompt")}`
                        : ""}
                    </p>
                    {integration.enabled && integration.state && integration.state.state !== "healthy" ? (
                      <IntegrationStateLine state={integration.state} className="mt-1 truncate" />
                    ) : integration.status === "failing" && integration.lastError ? (
                      <p className="mt-1 truncate text-xs text-destructive">{integration.lastError}</p>
                    ) : null}
                  </div>
                  <HealthStrip checks={health.get(integration.id) ?? []} />
                  {integration.oauth && integration.oauth.connection.status !== "connected" ? (
                    <OAuthStatusBadge status={integration.oauth.connection.status} />
                  ) : null}
                  <StatusBadge integration={integration} />
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
