import { Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { forbidden } from "next/navigation";
import { Suspense } from "react";
import { buttonClasses } from "@/components/ui/button";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { cn } from "@/lib/cn";
import { ForbiddenError } from "@/lib/errors";
import { listAllOrganizations } from "@/lib/orgs/organizations";
import { adminOrganization } from "@/lib/usage/admin-scope";
import { RANGES, rangeOf } from "@/lib/usage/dashboard";
import { DashboardPanels, DashboardPanelsLoading } from "./dashboard-panels";

export const metadata: Metadata = { title: "Dashboard" };

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
  if (!org) forbidden();
  const { key, range } = rangeOf(params.range);
  const organizations = ctx.isSuperadmin ? await listAllOrganizations(db) : [];
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

      {/* The figures stream in when their queries answer: the page and its controls show at once. */}
      <Suspense key={`${org.id} ${key}`} fallback={<DashboardPanelsLoading />}>
        <DashboardPanels
          db={db}
          org={org}
          ownOrganization={org.id === ctx.orgId}
          range={range}
          auditKind={params.audit}
        />
      </Suspense>
    </div>
  );
}
