import { sql } from "drizzle-orm";
import { usageRecords } from "@/db/schema";

/*
 * The one set of counting rules for every figure of the dashboard and its export. A recorded call ended one of
 * four ways:
 * - it succeeded;
 * - it was refused before any server saw it (its arguments did not match the schema, it was outside the caller's
 *   scope, its name does not exist, its integration is disabled): the caller's mistake, not the server's;
 * - the tool answered with its own error result (`isError`): the server worked, the tool said no;
 * - the server failed it: unreachable, failing, timed out, or answered with a protocol error.
 */

/** The error codes of refusals before the server, by their type (the part before the colon). */
const REFUSAL_TYPES = [
  "bad_request",
  "forbidden",
  "unauthorized",
  "not_found",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limit",
];

/** What a call outside the caller's scope is recorded with (the caller hears of an unknown tool). */
export const SCOPE_REFUSAL_CODE = "forbidden:scope";
/** What a call of a name that exists nowhere in the organization is recorded with. */
export const UNKNOWN_TOOL_CODE = "bad_request:unknown_tool";
/** What a result carrying the server's own protocol error is recorded with. */
export const UPSTREAM_ERROR_CODE = "bad_gateway:mcp_error";

const refusal = sql`(${usageRecords.outcome} = 'failed' and split_part(coalesce(${usageRecords.errorCode}, ''), ':', 1) in (${sql.join(
  REFUSAL_TYPES.map((type) => sql`${type}`),
  sql`, `,
)}))`;
const toolError = sql`(${usageRecords.outcome} = 'tool_error' and ${usageRecords.errorCode} is null)`;
const serverError = sql`(${usageRecords.outcome} <> 'ok' and not ${refusal} and not ${toolError})`;

const countWhere = (condition: ReturnType<typeof sql>) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/** The counts of each outcome, as columns of a grouped select. */
export const outcomeCounts = () => ({
  serverErrors: countWhere(serverError),
  refused: countWhere(refusal),
  toolErrors: countWhere(toolError),
});

/** Latency percentiles of the calls that reached a server: a refusal takes no time and says nothing of one. */
export const percentile = (fraction: number) =>
  sql<number>`coalesce(percentile_cont(${sql.raw(String(fraction))}) within group (order by ${usageRecords.latencyMs}) filter (where not ${refusal}), 0)`.mapWith(
    Number,
  );

/**
 * The row a call counts in among the tools: its tool's name, or null for names that exist nowhere (grouped as one
 * "unknown tools" row, since any caller may invent them). The code is written into the statement, so the
 * GROUP BY and the select are the same expression.
 */
export const toolKey = sql<
  string | null
>`case when ${usageRecords.errorCode} = '${sql.raw(UNKNOWN_TOOL_CODE)}' then null else ${usageRecords.tool} end`;

/** How the figures name the row of unknown names, in the export. */
export const UNKNOWN_TOOLS_LABEL = "(unknown tools)";

/** The figures every row of the dashboard carries. */
export interface OutcomeFigures {
  calls: number;
  serverErrors: number;
  refused: number;
  toolErrors: number;
}
