import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/(app)/admin/export/route";
import { usageRecords } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { testRunCapability } from "@/lib/tools/capability-test-run";
import { invokeTool } from "@/lib/tools/catalog";
import { dashboardData, rangeOf } from "@/lib/usage/dashboard";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

// The export reads the signed-in user through next-auth, which needs Next's runtime: stand in for it.
const session = vi.hoisted(() => ({ ctx: null as UserContext | null }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let everythingId: string;

/** A call that may be refused: the refusal is what the figures count, not what the test checks here. */
const attempt = (promise: Promise<unknown>) => promise.catch(() => undefined);

// A known set of calls, made for real through the catalog against the Everything server, plus two server
// failures written as the catalog records them (a real outage is tested elsewhere):
// - everything_echo: 2 succeed, 1 refused as outside the caller's scope;
// - everything_get-sum: 1 succeeds, 2 refused by argument validation;
// - "nope" and "no_such_tool": refused as unknown, one row "unknown tools";
// - mcp__dash__fails: its code throws, 1 tool error result;
// - mcp__draft__try: a test run of a capability never saved, 1 success;
// - everything_echo: 1 server error (integration unavailable), 1 the server's own protocol error.
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Dana")) as [UserContext];
  session.ctx = a;
  everythingId = (await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" })).id;
  await testIntegration(handle.db, a, everythingId);
  const call = (name: string, args: Record<string, unknown>, scope?: { integrationIds: string[] }) =>
    attempt(invokeTool(handle.db, a, name, args, { surface: "rest", ...(scope ? { scope } : {}) }));
  await call("everything_echo", { message: "one" });
  await call("everything_echo", { message: "two" });
  await call("everything_echo", { message: "out of scope" }, { integrationIds: [] });
  await call("everything_get-sum", { a: 1, b: 2 });
  await call("everything_get-sum", { a: "x", b: 2 });
  await call("everything_get-sum", {});
  await call("nope", {});
  await call("no_such_tool", {});
  await createCapability(handle.db, a, {
    namespace: "dash",
    action: "fails",
    code: "throw new Error('the tool says no');",
  });
  await call("mcp__dash__fails", {});
  await testRunCapability(handle.db, a, { namespace: "draft", action: "try", code: "return 1;", args: {} });
  const failure = (errorCode: string, outcome: "failed" | "tool_error") => ({
    organizationId: a.orgId,
    surface: "gateway" as const,
    tool: "everything_echo",
    source: "integration" as const,
    integrationId: everythingId,
    outcome,
    latencyMs: 50,
    errorCode,
  });
  await handle.db
    .insert(usageRecords)
    .values([
      failure("unavailable:mcp_integration", "failed"),
      failure("bad_gateway:mcp_error", "tool_error"),
    ]);
}, 120_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

describe("the dashboard's counting rules", () => {
  it("records a call outside the caller's scope as the tool it is, refused by scope", async () => {
    const rows = await usageRecordsOf(handle.db, a.orgId, "rest", "everything_echo");
    expect(rows.filter((row) => row.errorCode === "forbidden:scope")).toEqual([
      expect.objectContaining({ outcome: "failed", source: "integration", integrationId: everythingId }),
    ]);
  });

  it("splits server errors, refusals before the server and tool error results, the same in every panel", async () => {
    const data = await dashboardData(handle.db, a.orgId, rangeOf("24h").range);
    expect(data.totals).toMatchObject({ calls: 12, serverErrors: 2, refused: 5, toolErrors: 1 });

    const tools = Object.fromEntries(data.tools.map(({ tool, ...row }) => [tool ?? "unknown tools", row]));
    // One row per tool, the scope refusal included; unknown names share one row.
    expect(data.tools).toHaveLength(5);
    expect(tools.everything_echo).toMatchObject({ calls: 5, serverErrors: 2, refused: 1, toolErrors: 0 });
    expect(tools["everything_get-sum"]).toMatchObject({
      calls: 3,
      serverErrors: 0,
      refused: 2,
      toolErrors: 0,
    });
    expect(tools["unknown tools"]).toMatchObject({ calls: 2, serverErrors: 0, refused: 2, toolErrors: 0 });
    expect(tools.mcp__dash__fails).toMatchObject({ calls: 1, serverErrors: 0, refused: 0, toolErrors: 1 });
    expect(tools.mcp__draft__try).toMatchObject({ calls: 1, serverErrors: 0, refused: 0, toolErrors: 0 });

    // Failing tools: a server error or a tool error result; refusals alone are the callers'.
    expect(data.failingTools.map((row) => row.tool)).toEqual(["everything_echo", "mcp__dash__fails"]);

    // The integration's server failed 2 of its 8 calls: the 3 refusals are not its errors.
    const [everything] = data.integrations;
    expect(everything).toMatchObject({ calls: 8, serverErrors: 2, refused: 3, toolErrors: 0 });

    // Test runs of a capability never saved count among the capabilities as they do among the tools.
    expect(data.capabilities.map((row) => [row.tool, row.calls, row.toolErrors]).sort()).toEqual([
      ["mcp__dash__fails", 1, 1],
      ["mcp__draft__try", 1, 0],
    ]);

    // 24 hours in hourly buckets, which add up to the totals.
    expect(data.unit).toBe("hour");
    expect(data.buckets.length).toBeGreaterThanOrEqual(24);
    expect(data.buckets.length).toBeLessThanOrEqual(25);
    expect(data.buckets.at(-1)?.bucket).toBe(new Date().toISOString().slice(0, 13));
    const sum = (pick: (b: (typeof data.buckets)[number]) => number) =>
      data.buckets.reduce((total, b) => total + pick(b), 0);
    expect([
      sum((b) => b.calls),
      sum((b) => b.serverErrors),
      sum((b) => b.refused),
      sum((b) => b.toolErrors),
    ]).toEqual([12, 2, 5, 1]);
  });

  it("exports the same figures, one row per tool and one for unknown names", async () => {
    const response = await exportRoute(new Request("http://localhost:3000/admin/export?range=24h"), {
      params: Promise.resolve({}),
    });
    const lines = (await response.text()).trim().split("\n");
    expect(lines[0]).toBe("tool,source,calls,server_errors,refused,tool_errors,p50_ms,p95_ms");
    const byTool = Object.fromEntries(
      lines.slice(1).map((line) => [line.split(",")[0], line.split(",").slice(1, 6)]),
    );
    expect(byTool).toEqual({
      everything_echo: ["integration", "5", "2", "1", "0"],
      "everything_get-sum": ["integration", "3", "0", "2", "0"],
      "(unknown tools)": ["", "2", "0", "2", "0"],
      mcp__dash__fails: ["capability", "1", "0", "0", "1"],
      mcp__draft__try: ["capability", "1", "0", "0", "0"],
    });
  });

  it("defaults to the last 24 hours, so a new installation's first calls show", () => {
    expect(rangeOf(undefined).key).toBe("24h");
  });
});
