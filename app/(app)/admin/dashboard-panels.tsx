import { AuditLog } from "@/components/admin/audit-log";
import { CallsChart } from "@/components/admin/calls-chart";
import { PayloadSetting } from "@/components/admin/payload-setting";
import { StatTable } from "@/components/admin/stat-table";
import { HealthStrip } from "@/components/health/health-strip";
import { IntegrationStateLine } from "@/components/integrations/integration-state";
import { Card, CardTitle } from "@/components/ui/card";
import { AUDIT_KINDS, listAuditEvents } from "@/lib/audit/list-audit";
import type { SignedInPage } from "@/lib/auth/request-context";
import { cn } from "@/lib/cn";
import { recentHealthByIntegration } from "@/lib/health/health-round";
import { stateView } from "@/lib/mcp/integrations/state-view";
import { plural } from "@/lib/plural";
import { type OutcomeFigures, UNKNOWN_TOOLS_LABEL } from "@/lib/usage/call-outcomes";
import { type DashboardRange, dashboardData, PANEL_ROWS } from "@/lib/usage/dashboard";

const ms = (value: number) => `${Math.round(value)} ms`;
const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : "—");

/** The same three outcome columns in every panel, counted by the same rules (lib/usage/call-outcomes.ts). */
function outcomeColumns<T extends OutcomeFigures>() {
  return [
    { label: "Calls", cell: (row: T) => row.calls, numeric: true },
    {
      label: "Server errors",
      cell: (row: T) =>
        row.serverErrors ? `${row.serverErrors} (${percent(row.serverErrors, row.calls)})` : 0,
      numeric: true,
    },
    { label: "Refused", cell: (row: T) => row.refused, numeric: true },
    { label: "Tool errors", cell: (row: T) => row.toolErrors, numeric: true },
  ];
}

/** A tool's name, or the one row of names that exist nowhere. */
function ToolName({ tool }: { tool: string | null }) {
  return tool === null ? (
    <span className="text-xs italic text-muted-foreground">unknown tools</span>
  ) : (
    <code className="text-xs">{tool}</code>
  );
}

/** The dashboard's figures for one organization and range: totals, the chart, the panels and the audit log. */
export async function DashboardPanels({
  db,
  org,
  ownOrganization,
  range,
  auditKind,
}: {
  db: SignedInPage["db"];
  org: { id: string; recordToolPayloads: boolean };
  /** Whether it is the viewer's own organization, whose settings they may change here. */
  ownOrganization: boolean;
  range: DashboardRange;
  auditKind: string | undefined;
}) {
  const [data, audit, health] = await Promise.all([
    dashboardData(db, org.id, range),
    listAuditEvents(db, org.id, { range, limit: 500 }),
    recentHealthByIntegration(db, org.id),
  ]);
  const { totals } = data;
  return (
    <>
      <section
        aria-label="Totals"
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5"
        data-testid="totals"
      >
        {[
          ["Tool calls", totals.calls.toLocaleString("en")],
          ["Server errors", `${totals.serverErrors} · ${percent(totals.serverErrors, totals.calls)}`],
          ["Refused before the server", String(totals.refused)],
          ["Tool error results", String(totals.toolErrors)],
          ["Latency p50", ms(totals.p50)],
          ["Latency p95", ms(totals.p95)],
          ["Active users", String(totals.activeUsers)],
          ["API keys used", String(totals.apiKeys)],
          ["Conversations", String(totals.conversations)],
        ].map(([label, value]) => (
          <Card key={label} className="p-4" data-testid="kpi">
            <p className="text-xs text-muted-foreground">{label}</p>
            <p className="mt-1 whitespace-nowrap text-lg font-semibold tabular-nums">{value}</p>
          </Card>
        ))}
      </section>

      {ownOrganization ? (
        <Card>
          <PayloadSetting enabled={org.recordToolPayloads} />
        </Card>
      ) : null}

      <Card>
        <CardTitle>Tool calls per {data.unit} (UTC)</CardTitle>
        <CallsChart buckets={data.buckets} unit={data.unit} />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardTitle>Integrations</CardTitle>
          <StatTable
            caption="Health, outcomes and latency of each integration"
            rows={data.integrations}
            rowKey={(row) => row.integrationId}
            empty="No integrations yet."
            columns={[
              {
                label: "Integration",
                cell: (row) => {
                  const state = row.enabled ? stateView(row) : null;
                  return (
                    <div title={row.lastError ?? undefined} data-testid="dashboard-integration">
                      {row.name}{" "}
                      {state ? (
                        <IntegrationStateLine state={state} />
                      ) : (
                        <span
                          className={cn(
                            "text-xs",
                            row.status === "failing" ? "text-destructive" : "text-muted-foreground",
                          )}
                        >
                          {row.enabled ? row.status : "disabled"}
                        </span>
                      )}
                    </div>
                  );
                },
              },
              {
                label: "Health",
                cell: (row) => <HealthStrip checks={health.get(row.integrationId) ?? []} />,
              },
              ...outcomeColumns<(typeof data.integrations)[number]>(),
              { label: "p50", cell: (row) => (row.calls ? ms(row.p50) : "—"), numeric: true },
              { label: "p95", cell: (row) => (row.calls ? ms(row.p95) : "—"), numeric: true },
            ]}
          />
        </Card>
        <Card>
          <CardTitle>Top tools</CardTitle>
          <StatTable
            caption="The most called tools with their outcomes and latency"
            rows={data.topTools}
            rowKey={(row) => row.tool ?? UNKNOWN_TOOLS_LABEL}
            empty="No tool calls in this range."
            columns={[
              { label: "Tool", cell: (row) => <ToolName tool={row.tool} /> },
              ...outcomeColumns<(typeof data.topTools)[number]>(),
              { label: "p50", cell: (row) => ms(row.p50), numeric: true },
              { label: "p95", cell: (row) => ms(row.p95), numeric: true },
            ]}
          />
        </Card>
        <Card>
          <CardTitle>Failing tools</CardTitle>
          <StatTable
            caption="Tools whose server failed calls or that answered with errors in this range"
            rows={data.failingTools}
            rowKey={(row) => row.tool ?? UNKNOWN_TOOLS_LABEL}
            empty="No failures in this range."
            columns={[
              { label: "Tool", cell: (row) => <ToolName tool={row.tool} /> },
              ...outcomeColumns<(typeof data.failingTools)[number]>(),
            ]}
          />
        </Card>
        <Card>
          <CardTitle>API keys</CardTitle>
          <StatTable
            caption="Calls made with each API key"
            rows={data.apiKeys}
            rowKey={(row) => row.apiKeyId ?? "unknown"}
            empty="No calls with API keys in this range."
            columns={[
              { label: "Key", cell: (row) => (row.name ? `${row.name} (${row.prefix}…)` : "deleted key") },
              ...outcomeColumns<(typeof data.apiKeys)[number]>(),
            ]}
          />
          {totals.apiKeys > data.apiKeys.length ? (
            <p className="text-xs text-muted-foreground">
              The {data.apiKeys.length} busiest of {plural(totals.apiKeys, "key")}.
            </p>
          ) : null}
        </Card>
        <Card>
          <CardTitle>Connected apps</CardTitle>
          <StatTable
            caption="Calls through apps people connected by signing in"
            rows={data.oauthClients}
            rowKey={(row) => row.oauthClientId ?? "unknown"}
            empty="No calls through connected apps in this range."
            columns={[
              { label: "App", cell: (row) => row.name ?? "removed app" },
              { label: "People", cell: (row) => row.people, numeric: true },
              ...outcomeColumns<(typeof data.oauthClients)[number]>(),
            ]}
          />
        </Card>
        <Card>
          <CardTitle>Capabilities</CardTitle>
          <StatTable
            caption="Calls of the organization's capabilities"
            rows={data.capabilities}
            rowKey={(row) => row.tool}
            empty={`No capability calls in this range (${plural(data.capabilityCount, "capability", "capabilities")}).`}
            columns={[
              { label: "Capability", cell: (row) => <code className="text-xs">{row.tool}</code> },
              ...outcomeColumns<(typeof data.capabilities)[number]>(),
              { label: "p50", cell: (row) => ms(row.p50), numeric: true },
            ]}
          />
          {data.capabilities.length === PANEL_ROWS ? (
            <p className="text-xs text-muted-foreground">The {PANEL_ROWS} busiest capabilities.</p>
          ) : null}
        </Card>
      </div>

      <Card className="grid gap-2">
        <AuditLog
          rows={audit.map((row) => ({ ...row, occurredAt: row.occurredAt.toISOString() }))}
          kinds={AUDIT_KINDS}
          initialKind={auditKind}
        />
      </Card>
    </>
  );
}

/** What shows while the figures load: the panels' outlines, announced as loading. */
export function DashboardPanelsLoading() {
  return (
    <div className="grid gap-6" aria-busy="true" aria-live="polite">
      <p className="sr-only">Loading the figures…</p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {["calls", "server", "refused", "tool", "p50", "p95", "users", "keys", "conversations"].map(
          (name) => (
            <Card key={name} className="h-[74px] animate-pulse bg-muted/40 p-4" />
          ),
        )}
      </div>
      <Card className="h-72 animate-pulse bg-muted/40" />
      <div className="grid gap-6 lg:grid-cols-2">
        {["integrations", "tools"].map((name) => (
          <Card key={name} className="h-48 animate-pulse bg-muted/40" />
        ))}
      </div>
    </div>
  );
}
