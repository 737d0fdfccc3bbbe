import { requireSignedInUser } from "@/lib/auth/request-context";
import { ValidationError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { toCsv } from "@/lib/http/csv";
import { otherMethods } from "@/lib/http/other-methods";
import { adminOrganization } from "@/lib/usage/admin-scope";
import { UNKNOWN_TOOLS_LABEL } from "@/lib/usage/call-outcomes";
import { dashboardData, isRangeKey, RANGES, rangeOf } from "@/lib/usage/dashboard";

export const dynamic = "force-dynamic";

/**
 * The dashboard's per-tool figures for the range as CSV, counted as the dashboard counts them; cells a spreadsheet
 * would run as formulas are quoted.
 */
export const GET = apiRoute("GET /admin/export", async (request, { db }) => {
  const ctx = await requireSignedInUser();
  const url = new URL(request.url);
  const requested = url.searchParams.getAll("range");
  if (requested.length > 1 || (requested.length === 1 && !isRangeKey(requested[0])))
    throw new ValidationError(`range must be one of ${Object.keys(RANGES).join(", ")}.`, {
      range: [`range must be one of ${Object.keys(RANGES).join(", ")}.`],
    });
  const org = await adminOrganization(db, ctx, url.searchParams.get("org") ?? undefined);
  const { key, range } = rangeOf(requested[0]);
  const data = await dashboardData(db, org.id, range);
  const csv = toCsv([
    ["tool", "source", "calls", "server_errors", "refused", "tool_errors", "p50_ms", "p95_ms"],
    ...data.tools.map((row) => [
      row.tool ?? UNKNOWN_TOOLS_LABEL,
      row.source ?? "",
      row.calls,
      row.serverErrors,
      row.refused,
      row.toolErrors,
      Math.round(row.p50),
      Math.round(row.p95),
    ]),
  ]);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="switchboard-${org.slug}-${key}.csv"`,
    },
  });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
