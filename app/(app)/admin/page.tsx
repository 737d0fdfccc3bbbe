import { Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AuditChange } from "@/components/admin/audit-change";
import { CallsChart } from "@/components/admin/calls-chart";
import { PayloadSetting } from "@/components/admin/payload-setting";
import { StatTable } from "@/components/admin/stat-table";
import { HealthStrip } from "@/components/health/health-strip";
import { PageMessage } from "@/components/shell/page-message";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { AUDIT_KINDS, listAuditEvents } from "@/lib/audit/list-audit";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { cn } from "@/lib/cn";
import { ForbiddenError } from "@/lib/errors";
import { recentHealthByIntegration } from "@/lib/health/health-round";
import { listAllOrganizations } from "@/lib/orgs/organizations";
import { plural } from "@/lib/plural";
import { adminOrganization } from "@/lib/usage/admin-scope";
import { dashboardData, PANEL_ROWS, RANGES, rangeOf } from "@/lib/usage/dashboard";

export const metadata: Metadata = { title: "Dashboard" };

const ms = (value: number) => `${Math.round(value)} ms`;
const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : "—");

type Search = Promise<Record<string, string | string[] | undefined>>;

/** One query value as the page reads it: a repeated parameter (`?org=a&org=b`) counts as absent. */
const single = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/** Health, usage and the audit log of one organization, for its owners and admins (any, for a superadmin). */
export default async function AdminPage({ searchParams }: { searchParams: Search }) {
  const { db, ctx } = await requireSignedInPage();
  const query = await searchParams;
  const params = { range: single(query.range), org: single(query.org), audit: single(query.audit) };
  const org = await adminOrganization(db, ctx, params.org).catch((error: unknown) => {
    if (error instanceof ForbiddenError) return null;
    throw error;
  });
  if (!org)
    return (
      <PageMessage title="The dashboard is for admins" links={[{ href: "/", label: "Go to the overview" }]}>
        Only the organization&apos;s owners and admins see its health, usage and audit log. Ask one of them if
        you need something from it.
      </PageMessage>
    );
  const { key, range } = rangeOf(params.range);
  const [data, audit, organizations, health] = await Promise.all([
    dashboardData(db, org.id, range),
    listAuditEvents(db, org.id, { range, kind: params.audit }),
    ctx.isSuperadmin ? listAllOrganizations(db) : Promise.resolve([]),
    recentHealthByIntegration(db, org.id),
  ]);
  const link = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(
      Object.entries({
        range: key,
        org: ctx.isSuperadmin ? org.id : undefined,
        audit: params.audit,
        ...changes,
      }).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return `/admin?${next.toString()}`;
  };
  const { totals } = data;
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Dashboard</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {org.name}: tool calls from the chat, the REST API, the gateway and capabilities, integration
            health, and who changed what.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <nav aria-label="Time range" className="flex rounded-md border">
            {Object.keys(RANGES).map((option) => (
              <Link
                key={option}
                href={link({ range: option })}
                aria-current={option === key ? "page" : undefined}
                className={cn(
                  "px-3 py-1.5 text-sm",
                  option === key ? "bg-primary text-primary-foreground" : "hover:bg-muted",
                )}
              >
                {option}
              </Link>
            ))}
          </nav>
          <a
            href={`/admin/export?range=${key}${ctx.isSuperadmin ? `&org=${org.id}` : ""}`}
            className={buttonClasses({ variant: "secondary", size: "sm" })}
          >
            <Download className="h-4 w-4" aria-hidden /> CSV
          </a>
        </div>
      </div>
      {ctx.isSuperadmin ? (
        <p className="flex gap-3 text-sm">
          <Link href="/admin/organizations" className="text-primary hover:underline">
            All organizations
          </Link>
          <Link href="/admin/users" className="text-primary hover:underline">
            Users
          </Link>
        </p>
      ) : null}
      {organizations.length > 1 ? (
        <nav aria-label="Organizations" className="flex flex-wrap gap-2 text-sm">
          {organizations.map((o) => (
            <Link
              key={o.id}
              href={`/admin?range=${key}&org=${o.id}`}
              aria-current={o.id === org.id ? "page" : undefined}
              className={cn(
                "rounded-full border px-3 py-1",
                o.id === org.id ? "bg-muted font-medium" : "hover:bg-muted",
              )}
            >
              {o.name}
            </Link>
          ))}
        </nav>
      ) : null}

      <section
        aria-label="Totals"
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
        data-testid="totals"
      >
        {[
          ["Tool calls", totals.calls.toLocaleString("en")],
          ["Error rate", percent(totals.errors, totals.calls)],
          ["p50 / p95", `${ms(totals.p50)} / ${ms(totals.p95)}`],
          ["Active users", String(totals.activeUsers)],
          ["API keys used", String(totals.apiKeys)],
          ["Conversations", String(totals.conversations)],
        ].map(([label, value]) => (
          <Card key={label} className="p-4">
            <p className="text-xs text-muted-foreground">{label}</p>
            <p className="mt-1 text-lg font-semibold tabular-nums">{value}</p>
          </Card>
        ))}
      </section>

      {org.id === ctx.orgId ? (
        <Card>
          <PayloadSetting enabled={org.recordToolPayloads} />
        </Card>
      ) : null}

      <Card>
        <CardTitle>Tool calls over time</CardTitle>
        <CallsChart daily={data.daily} />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardTitle>Integrations</CardTitle>
          <StatTable
            caption="Health, error rate and latency of each integration"
            rows={data.integrations}
            rowKey={(row) => row.integrationId}
            empty="No integrations yet."
            columns={[
              {
                label: "Integration",
                cell: (row) => (
                  <span title={row.lastError ?? undefined}>
                    {row.name}{" "}
                    <span
                      className={cn(
                        "text-xs",
                        row.status === "failing" ? "text-destructive" : "text-muted-foreground",
                      )}
                    >
                      {row.enabled ? row.status : "disabled"}
                    </span>
                  </span>
                ),
              },
              {
                label: "Health",
                cell: (row) => <HealthStrip checks={health.get(row.integrationId) ?? []} />,
              },
              { label: "Calls", cell: (row) => row.calls, numeric: true },
              { label: "Errors", cell: (row) => percent(row.errors, row.calls), numeric: true },
              { label: "p50", cell: (row) => (row.calls ? ms(row.p50) : "—"), numeric: true },
              { label: "p95", cell: (row) => (row.calls ? ms(row.p95) : "—"), numeric: true },
            ]}
          />
        </Card>
        <Card>
          <CardTitle>Top tools</CardTitle>
          <StatTable
            caption="The most called tools with their error rate and latency"
            rows={data.topTools}
            rowKey={(row) => row.tool}
            empty="No tool calls in this range."
            columns={[
              { label: "Tool", cell: (row) => <code className="text-xs">{row.tool}</code> },
              { label: "Calls", cell: (row) => row.calls, numeric: true },
              { label: "Errors", cell: (row) => row.errors, numeric: true },
              { label: "p50", cell: (row) => ms(row.p50), numeric: true },
              { label: "p95", cell: (row) => ms(row.p95), numeric: true },
            ]}
          />
        </Card>
        <Card>
          <CardTitle>Failing tools</CardTitle>
          <StatTable
            caption="Tools with errors in this range"
            rows={data.failingTools}
            rowKey={(row) => row.tool}
            empty="No failures in this range."
            columns={[
              { label: "Tool", cell: (row) => <code className="text-xs">{row.tool}</code> },
              { label: "Errors", cell: (row) => row.errors, numeric: true },
              { label: "of calls", cell: (row) => percent(row.errors, row.calls), numeric: true },
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
              { label: "Calls", cell: (row) => row.calls, numeric: true },
              { label: "Errors", cell: (row) => row.errors, numeric: true },
            ]}
          />
          {totals.apiKeys > data.apiKeys.length ? (
            <p className="text-xs text-muted-foreground">
              The {data.apiKeys.length} busiest of {plural(totals.apiKeys, "key")}.
            </p>
          ) : null}
        </Card>
        <Card>
          <CardTitle>Capabilities</CardTitle>
          <StatTable
            caption="Calls of the organization's capabilities"
            rows={data.capabilities}
            rowKey={(row) => row.capabilityId ?? row.tool}
            empty={`No capability calls in this range (${plural(data.capabilityCount, "capability", "capabilities")}).`}
            columns={[
              { label: "Capability", cell: (row) => <code className="text-xs">{row.tool}</code> },
              { label: "Calls", cell: (row) => row.calls, numeric: true },
              { label: "Errors", cell: (row) => row.errors, numeric: true },
              { label: "p50", cell: (row) => ms(row.p50), numeric: true },
            ]}
          />
          {data.capabilities.length === PANEL_ROWS ? (
            <p className="text-xs text-muted-foreground">The {PANEL_ROWS} busiest capabilities.</p>
          ) : null}
        </Card>
      </div>

      <Card>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>Audit log</CardTitle>
          <nav aria-label="Audit filter" className="flex flex-wrap gap-1 text-xs">
            {[undefined, ...AUDIT_KINDS].map((kind) => (
              <Link
                key={kind ?? "all"}
                href={link({ audit: kind })}
                aria-current={kind === params.audit ? "page" : undefined}
                className={cn(
                  "rounded-full border px-2 py-0.5",
                  kind === params.audit ? "bg-muted font-medium" : "hover:bg-muted",
                )}
              >
                {kind ? kind.replace("_", " ") : "all"}
              </Link>
            ))}
          </nav>
        </div>
        <StatTable
          caption="Changes in this range, newest first"
          rows={audit}
          rowKey={(row) => String(row.id)}
          empty="No changes in this range."
          columns={[
            { label: "When", cell: (row) => row.occurredAt.toISOString().replace("T", " ").slice(0, 16) },
            {
              label: "Who",
              cell: (row) => row.actorEmail ?? (row.actorKey ? `key ${row.actorKey}` : "operator"),
            },
            { label: "What", cell: (row) => <code className="text-xs">{row.action}</code> },
            { label: "Target", cell: (row) => row.targetName ?? "—" },
            {
              label: "Change",
              cell: (row) => <AuditChange before={row.before} after={row.after} />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
