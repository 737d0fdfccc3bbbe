import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as invokeRoute } from "@/app/api/mcp/invoke/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { REQUEST_BUDGET } from "@/lib/capabilities/run-budget";
import { createCapability, getCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { invokeTool } from "@/lib/tools/catalog";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let strict: RunningFixture;
let a: UserContext;
let key: string;
const ids: Record<string, string> = {};
const db = () => handle.db;

const define = async (namespace: string, action: string, code: string) => {
  const created = await createCapability(db(), a, {
    namespace,
    action,
    description: `${namespace} ${action}`,
    code,
  });
  ids[`${namespace}.${action}`] = created.id;
};

const runsOf = async (name: string) => (await getCapability(db(), a, ids[name] as string)).usageCount;

async function strictCalls(): Promise<number> {
  const stats = (await (await fetch(`${strict.baseUrl}/stats`)).json()) as { toolCalls: number };
  return stats.toolCalls;
}

const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((part) => part.text ?? "").join("");

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Uma")) as [UserContext];
  // A server that counts every tools/call it receives, to see whether runs go on after their request ended.
  strict = await startFixture("strict");
  const strictId = (
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Strict",
      transport: "streamable-http",
      url: strict.url,
    })
  ).id;
  expect((await testIntegration(handle.db, a, strictId)).ok).toBe(true);
  key = (await createApiKey(handle.db, a, { name: "budget" })).key;
  // Ten calls of itself at every level: 1 + 10 + 100 + 1,000 runs three levels deep, unless something stops it.
  await define(
    "fan",
    "out",
    "await Promise.all(Array.from({ length: 10 }, () => tools.call('mcp__fan__out', {}).catch((e) => e.message))); return 'done';",
  );
  // Forty calls of a built-in each; three of these from one parent are 123 calls in all.
  await define(
    "many",
    "calls",
    "let n = 0; for (let i = 0; i < 40; i++) { try { await tools.call('node_knowledge_retriever', { node_names: ['x'] }); n++; } catch (e) { return { n, error: e.message }; } } return { n };",
  );
  await define(
    "many",
    "parent",
    "const a = await tools.call('mcp__many__calls', {}); const b = await tools.call('mcp__many__calls', {}); const c = await tools.call('mcp__many__calls', {}); return { a, b, c };",
  );
  // Each step works ~150 ms, then calls the counting server; the parent takes twenty steps.
  await define(
    "slow",
    "step",
    "const end = Date.now() + 150; while (Date.now() < end) {} return await tools.call('strict_echo', { message: 'step' });",
  );
  await define(
    "slow",
    "steps",
    "for (let i = 0; i < 20; i++) await tools.call('mcp__slow__step', {}); return 'all steps';",
  );
}, 90_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await strict?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("one budget per request, carried down every capability it reaches", () => {
  it("stops a capability that fans out into itself at the request's sandbox-run budget", async () => {
    const result = await invokeTool(db(), a, "mcp__fan__out", {}, { surface: "rest" });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("done");
    // Every run is counted on the capability; refused ones never reached a sandbox.
    expect(await runsOf("fan.out")).toBe(REQUEST_BUDGET.sandboxRuns);
  });

  it("tells code that wants a run past the budget why, in the error tools.call throws", async () => {
    await define(
      "fan",
      "probe",
      "const errors = []; for (let i = 0; i < 25; i++) { try { await tools.call('mcp__fan__leaf', {}); } catch (e) { errors.push(e.message); } } return { errors: errors.length, first: errors[0] };",
    );
    await define("fan", "leaf", "return 1;");
    const result = await invokeTool(db(), a, "mcp__fan__probe", {}, { surface: "rest" });
    // The probe is one run; 19 leaves fit beside it, the other 6 calls are refused.
    expect(result.structuredContent).toEqual({
      errors: 25 - (REQUEST_BUDGET.sandboxRuns - 1),
      first: `This request has already run ${REQUEST_BUDGET.sandboxRuns} capabilities, the most one request may run.`,
    });
  });

  it("counts tool calls across the whole tree, not per run", async () => {
    const result = await invokeTool(db(), a, "mcp__many__parent", {}, { surface: "rest" });
    // The parent's own three calls count too: 3 + 40 + 40, and the third child gets what is left.
    expect(result.structuredContent).toEqual({
      a: { n: 40 },
      b: { n: 40 },
      c: {
        n: REQUEST_BUDGET.toolCalls - 83,
        error: `This request's capabilities have already made ${REQUEST_BUDGET.toolCalls} tool calls, the most one request may make.`,
      },
    });
  });

  it("gives each new request a budget of its own", async () => {
    const before = await runsOf("fan.out");
    await invokeTool(db(), a, "mcp__fan__out", {}, { surface: "rest" });
    expect((await runsOf("fan.out")) - before).toBe(REQUEST_BUDGET.sandboxRuns);
  });
});

describe("cancellation", () => {
  it("stops every nested run when the caller cancels, so nothing reaches a server afterwards", async () => {
    const controller = new AbortController();
    const pending = invokeTool(
      db(),
      a,
      "mcp__slow__steps",
      {},
      { surface: "rest", signal: controller.signal },
    );
    await vi.waitFor(async () => expect(await strictCalls()).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true });
    expect(result.errorMessage).toBe("The request was cancelled before the capability finished.");
    const atCancel = await strictCalls();
    // Long enough for several more steps, had the nested runs gone on.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await strictCalls()).toBe(atCancel);
    expect(atCancel).toBeLessThan(20);
  });

  it("stops when a REST client hangs up", async () => {
    const before = await strictCalls();
    const controller = new AbortController();
    const response = invokeRoute(
      new Request("http://localhost:3000/api/mcp/invoke", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ tool_name: "mcp__slow__steps", params: {} }),
        signal: controller.signal,
      }),
      { params: Promise.resolve({}) },
    );
    await vi.waitFor(async () => expect(await strictCalls()).toBeGreaterThanOrEqual(before + 2), {
      timeout: 10_000,
    });
    controller.abort();
    await response;
    const atCancel = await strictCalls();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await strictCalls()).toBe(atCancel);
    expect(atCancel - before).toBeLessThan(20);
  });

  it("stops when a gateway client hangs up", async () => {
    const before = await strictCalls();
    const controller = new AbortController();
    const response = gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "mcp__slow__steps", arguments: {} },
      }),
      signal: controller.signal,
    });
    await vi.waitFor(async () => expect(await strictCalls()).toBeGreaterThanOrEqual(before + 2), {
      timeout: 10_000,
    });
    controller.abort();
    await response.catch(() => undefined);
    const atCancel = await strictCalls();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await strictCalls()).toBe(atCancel);
    expect(atCancel - before).toBeLessThan(20);
  });
});
