import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageRecords } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { listAuditEvents } from "@/lib/audit/list-audit";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import type { AppError } from "@/lib/errors";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { adminOrganization } from "@/lib/usage/admin-scope";
import { dashboardData, rangeOf } from "@/lib/usage/dashboard";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let member: UserContext;
let keyId: string;
const now = new Date("2026-06-30T12:00:00Z");
const daysAgo = (days: number, hour = 10) => new Date(Date.UTC(2026, 5, 30 - days, hour));

beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "Xia", "Yan")) as [UserContext, UserContext];
  const m = await registerUser(handle.db, {
    name: "Zed",
    email: "zed@example.com",
    password: "password zed",
  });
  await joinByInvitation(handle.db, a, { email: "zed@example.com", role: "member" });
  member = await resolveUserContext(handle.db, { userId: m.user.id, preferredOrgId: a.orgId });
  keyId = (await createApiKey(handle.db, a, { name: "Reports" })).apiKey.id;
  const row = (
    orgId: string,
    tool: string,
    days: number,
    latencyMs: number,
    outcome: "ok" | "tool_error" | "failed",
    extra = {},
  ) => ({
    organizationId: orgId,
    occurredAt: daysAgo(days),
    surface: "rest" as const,
    tool,
    source: "builtin" as const,
    outcome,
    latencyMs,
    ...extra,
  });
  await handle.db.insert(usageRecords).values([
    // Ten calls of a fast tool over two days, one of them failing.
    ...Array.from({ length: 10 }, (_, i) =>
      row(a.orgId, "fast", i % 2, 10 * (i + 1), i === 9 ? "tool_error" : "ok", { apiKeyId: keyId }),
    ),
    row(a.orgId, "slow", 3, 900, "failed", { userId: a.userId, errorCode: "unavailable:mcp_connection" }),
    row(a.orgId, "old", 60, 5, "ok"),
    row(b.orgId, "fast", 0, 1, "ok"),
  ]);
}, 60_000);
afterAll(() => handle?.close());

describe("the dashboard's figures", () => {
  it("counts calls, errors and latency percentiles for the organization and range only", async () => {
    const data = await dashboardData(handle.db, a.orgId, rangeOf("30d", now).range);
    expect(data.totals).toMatchObject({
      calls: 11,
      serverErrors: 1,
      toolErrors: 1,
      refused: 0,
      activeUsers: 1,
      apiKeys: 1,
    });
    expect(data.totals.p50).toBe(60);
    expect(data.topTools[0]).toMatchObject({ tool: "fast", calls: 10, toolErrors: 1, p50: 55 });
    expect(data.topTools[0]?.p95).toBeCloseTo(95.5, 1);
    expect(new Set(data.failingTools.map((t) => t.tool))).toEqual(new Set(["fast", "slow"]));
    expect(data.apiKeys).toEqual([
      expect.objectContaining({
        apiKeyId: keyId,
        name: "Reports",
        calls: 10,
        toolErrors: 1,
        serverErrors: 0,
      }),
    ]);
    // 30 days back from midday: 31 calendar days, the first and last in part.
    expect(data.unit).toBe("day");
    expect(data.buckets).toHaveLength(31);
    expect(data.buckets.reduce((sum, d) => sum + d.calls, 0)).toBe(11);
    expect(data.buckets.find((d) => d.bucket === "2026-06-27")).toEqual({
      bucket: "2026-06-27",
      calls: 1,
      serverErrors: 1,
      refused: 0,
      toolErrors: 0,
    });
    const week = await dashboardData(handle.db, a.orgId, rangeOf("90d", now).range);
    expect(week.totals.calls).toBe(12);
    const other = await dashboardData(handle.db, b.orgId, rangeOf("30d", now).range);
    expect(other.totals.calls).toBe(1);
  });

  it("gives each integration its calls in the range, and zeros to one never called", async () => {
    const [called, idle] = await Promise.all(
      ["Called", "Idle"].map((name) =>
        createIntegration(handle.db, a, {
          source: "custom",
          name,
          transport: "streamable-http",
          url: `https://${name.toLowerCase()}.example.com/mcp`,
        }),
      ),
    );
    const call = (orgId: string, days: number, latencyMs: number, outcome: "ok" | "failed") => ({
      organizationId: orgId,
      occurredAt: daysAgo(days),
      surface: "gateway" as const,
      tool: "called_echo",
      source: "integration" as const,
      integrationId: called?.id,
      outcome,
      latencyMs,
    });
    await handle.db
      .insert(usageRecords)
      .values([
        call(a.orgId, 1, 10, "ok"),
        call(a.orgId, 2, 20, "failed"),
        call(a.orgId, 3, 30, "ok"),
        call(a.orgId, 60, 5, "ok"),
        call(b.orgId, 1, 7, "ok"),
      ]);
    const { integrations } = await dashboardData(handle.db, a.orgId, rangeOf("30d", now).range);
    expect(
      integrations.map(({ name, calls, serverErrors, p50, p95 }) => ({
        name,
        calls,
        serverErrors,
        p50,
        p95,
      })),
    ).toEqual([
      { name: "Called", calls: 3, serverErrors: 1, p50: 20, p95: 29 },
      { name: "Idle", calls: 0, serverErrors: 0, p50: 0, p95: 0 },
    ]);
    expect(integrations[1]?.integrationId).toBe(idle?.id);
  });

  it("opens an organization's dashboard to its owners and admins, and any to a superadmin", async () => {
    // The first account registered is a superadmin (a); the second (b) is an owner like any other.
    expect(a.isSuperadmin).toBe(true);
    expect(b.isSuperadmin).toBe(false);
    expect((await adminOrganization(handle.db, b)).id).toBe(b.orgId);
    // An owner asking for another organization still gets their own.
    expect((await adminOrganization(handle.db, b, a.orgId)).id).toBe(b.orgId);
    const refused = await adminOrganization(handle.db, member).catch((e: AppError) => e);
    expect(refused).toMatchObject({ status: 403 });
    expect((await adminOrganization(handle.db, a, b.orgId)).id).toBe(b.orgId);
  });

  it("lists audit entries of one kind for the organization", async () => {
    const entries = await listAuditEvents(handle.db, a.orgId, {
      range: rangeOf("24h").range,
      kind: "api_key",
    });
    expect(entries.map((e) => e.action)).toEqual(["api_key.create"]);
    expect(entries[0]).toMatchObject({ actorEmail: "xia@example.com", targetName: "Reports" });
    expect(
      await listAuditEvents(handle.db, b.orgId, { range: rangeOf("24h").range, kind: "api_key" }),
    ).toEqual([]);
  });
});
