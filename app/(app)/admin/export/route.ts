import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { apiRoute } from "@/lib/http/api-route";
import { adminOrganization } from "@/lib/usage/admin-scope";
import { dashboardData, rangeOf } from "@/lib/usage/dashboard";

export const dynamic = "force-dynamic";

const csvCell = (value: unknown) => {
  const text = String(value ?? "");
  // Quotes, and a leading quote mark for values a spreadsheet would run as formulas.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The dashboard's per-tool figures for the range as CSV. */
export const GET = apiRoute("GET /admin/export", async (request) => {
  const ctx = await requireApiContext();
  const url = new URL(request.url);
  const org = await adminOrganization(getDb(), ctx, url.searchParams.get("org") ?? undefined);
  const { key, range } = rangeOf(url.searchParams.get("range") ?? undefined);
  const data = await dashboardData(getDb(), org.id, range);
  const lines = [
    ["tool", "source", "calls", "errors", "p50_ms", "p95_ms"].join(","),
    ...data.tools.map((row) =>
      [row.tool, row.source ?? "", row.calls, row.errors, Math.round(row.p50), Math.round(row.p95)]
        .map(csvCell)
        .join(","),
    ),
  ];
  return new Response(`${lines.join("\n")}\n`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="switchboard-${org.slug}-${key}.csv"`,
    },
  });
});
