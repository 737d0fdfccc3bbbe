import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as invokeRoute } from "@/app/api/mcp/invoke/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { openPglite } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { enforceRateLimit } from "@/lib/api-keys/rate-limit";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { resetMetrics } from "@/lib/metrics/metrics";
import { type RunningFixture, startEverything } from "../fixtures/mcp/start-fixture";
import { connectGateway, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { parseMetrics, type Sample, sum } from "./prometheus-text";
import { createTestDatabase } from "./test-db";

vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

const TOKEN = "metrics-token-for-the-tests";
process.env.METRICS_TOKEN = TOKEN;
process.env.METRICS_ORG_LABEL = "true";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let key: string;
let remote: RunningFixture;
let remoteId: string;
let brokenId: string;
let gateway: Client;

const scrape = (authorization?: string) =>
  metricsRoute(
    new Request("http://localhost/api/metrics", authorization ? { headers: { authorization } } : {}),
    { params: Promise.resolve({}) },
  );

const invoke = (tool: string, args: Record<string, unknown>) =>
  invokeRoute(
    new Request("http://localhost/api/mcp/invoke", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_name: tool, params: args }),
    }),
    { params: Promise.resolve({}) },
  );

async function samples(): Promise<Sample[]> {
  const response = await scrape(`Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

beforeAll(async () => {
  resetMetrics();
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Mia")) as [UserContext];
  key = (await createApiKey(handle.db, owner, { name: "metrics" })).key;
  remote = await startEverything("streamableHttp");
  remoteId = (
    await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Remote",
      transport: "streamable-http",
      url: remote.url,
    })
  ).id;
  expect((await testIntegration(handle.db, owner, remoteId)).ok).toBe(true);
  // Nothing listens on port 9 of loopback: its discovery fails.
  brokenId = (
    await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Broken",
      transport: "streamable-http",
      url: "http://127.0.0.1:9/mcp",
    })
  ).id;
  expect((await testIntegration(handle.db, owner, brokenId)).ok).toBe(false);
  await createCapability(handle.db, owner, {
    namespace: "calc",
    action: "double",
    description: "Doubles a number",
    code: "return args.n * 2;",
  });
  await createCapability(handle.db, owner, {
    namespace: "calc",
    action: "flood",
    description: "Returns more than a result may hold",
    code: "return 'x'.repeat(2_000_000);",
  });
  gateway = await connectGateway(key);
});

afterAll(async () => {
  await gateway?.close();
  await remote?.stop();
  await handle?.close();
  resetMetrics();
});

describe("GET /api/metrics", () => {
  it("refuses a scraper without the token, or with another, with 401 and how to authenticate", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-of-some-length", TOKEN]) {
      const response = await scrape(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(JSON.stringify(await response.json())).toContain("METRICS_TOKEN");
    }
  });

  it("counts REST requests and their tool calls by surface, route, status, source and outcome", async () => {
    for (let i = 0; i < 3; i++)
      expect((await invoke("node_knowledge_retriever", { node_names: ["none"] })).status).toBe(200);
    expect((await invoke("no_such_tool", {})).status).toBe(400);
    const after = await samples();
    const org = { organization: owner.orgId };
    expect(
      sum(after, "switchboard_http_requests_total", {
        surface: "rest",
        route: "POST /api/mcp/invoke",
        status: "200",
        ...org,
      }),
    ).toBe(3);
    expect(
      sum(after, "switchboard_http_requests_total", { route: "POST /api/mcp/invoke", status: "400" }),
    ).toBe(1);
    expect(
      sum(after, "switchboard_tool_calls_total", {
        surface: "rest",
        source: "builtin",
        outcome: "ok",
        ...org,
      }),
    ).toBe(3);
    expect(sum(after, "switchboard_tool_calls_total", { surface: "rest", outcome: "failed" })).toBe(1);
    expect(
      sum(after, "switchboard_http_request_duration_seconds_count", { route: "POST /api/mcp/invoke" }),
    ).toBe(4);
    expect(sum(after, "switchboard_tool_call_duration_seconds_count", { surface: "rest" })).toBe(4);
  });

  it("counts gateway calls of an integration's tool, and the upstream session that served them", async () => {
    for (let i = 0; i < 2; i++) {
      const result = await gateway.callTool({ name: "remote_echo", arguments: { message: "argument-7f3a" } });
      expect(textOf(result)).toContain("argument-7f3a");
    }
    const after = await samples();
    expect(
      sum(after, "switchboard_tool_calls_total", {
        surface: "gateway",
        source: "integration",
        outcome: "ok",
      }),
    ).toBe(2);
    expect(
      sum(after, "switchboard_http_requests_total", { surface: "gateway", status: "200" }),
    ).toBeGreaterThan(2);
    expect(
      sum(after, "switchboard_mcp_sessions_opened_total", {
        integration: remoteId,
        transport: "streamable-http",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(after, "switchboard_mcp_sessions_open", { integration: remoteId })).toBeGreaterThanOrEqual(1);
  });

  it("counts discoveries by outcome, sandbox runs and the limits they hit, and rate-limited requests", async () => {
    expect((await invoke("mcp__calc__double", { n: 21 })).status).toBe(200);
    const flood = await invoke("mcp__calc__flood", {});
    expect(await flood.json()).toMatchObject({ details: expect.stringContaining("at most 1,048,576") });
    await enforceRateLimit(handle.db, "api-key:metrics-test", 1);
    await expect(enforceRateLimit(handle.db, "api-key:metrics-test", 1)).rejects.toThrow();
    const database = openPglite();
    await database.db.execute(sql`select 1`);
    await database.close();
    const after = await samples();
    expect(sum(after, "switchboard_discoveries_total", { integration: remoteId, outcome: "ok" })).toBe(1);
    expect(sum(after, "switchboard_discoveries_total", { integration: brokenId, outcome: "failed" })).toBe(1);
    expect(sum(after, "switchboard_sandbox_runs_total", { outcome: "ok" })).toBe(1);
    expect(sum(after, "switchboard_sandbox_runs_total", { outcome: "output_too_large" })).toBe(1);
    expect(sum(after, "switchboard_sandbox_limits_hit_total", { limit: "output_too_large" })).toBe(1);
    expect(sum(after, "switchboard_rate_limited_requests_total", { limit: "api-key" })).toBe(1);
    expect(sum(after, "switchboard_db_queries_total", {})).toBeGreaterThanOrEqual(1);
    // Every statement sent is answered: none is left counted as holding a connection. The instance's own timers
    // (usage writes, rate-limit counts) may have one out at the moment of a scrape, so it is read until it is 0.
    await expect
      .poll(
        async () => (await samples()).find((s) => s.name === "switchboard_db_statements_in_flight")?.value,
        {
          timeout: 5_000,
        },
      )
      .toBe(0);
    expect(sum(after, "switchboard_process_cpu_seconds_total", {})).toBeGreaterThan(0);
  });

  it("reports each integration's state on this instance, and the changes into each state", async () => {
    const after = await samples();
    const state = (integration: string, name: string) =>
      sum(after, "switchboard_integration_state", { integration, state: name });
    expect(["healthy", "degraded", "failing", "recovering"].map((name) => state(remoteId, name))).toEqual([
      1, 0, 0, 0,
    ]);
    // Its test found nothing listening: a check that fails settles it as failing.
    expect(state(brokenId, "failing") + state(brokenId, "recovering")).toBe(1);
    expect(
      sum(after, "switchboard_integration_state_changes_total", { integration: brokenId, state: "failing" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sum(after, "switchboard_integration_state_changes_total", { integration: remoteId, state: "healthy" }),
    ).toBe(1);
  });

  it("never carries a secret, an argument or a user in a label", async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    const text = await response.text();
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(0, 11));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(owner.userId);
    expect(text).not.toContain("argument-7f3a");
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  });
});
