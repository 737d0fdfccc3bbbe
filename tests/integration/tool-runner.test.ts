import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { invokeTool } from "@/lib/tools/catalog";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { appErrorOf } from "./app-error";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let strict: RunningFixture;
let a: UserContext;
let b: UserContext;
let key: string;
let everythingId: string;
let strictId: string;
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Rae", "Sol")) as [UserContext, UserContext];
  // The real Everything server over stdio, and a server that counts every tools/call it receives.
  strict = await startFixture("strict");
  everythingId = (await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" })).id;
  strictId = (
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Strict",
      transport: "streamable-http",
      url: strict.url,
    })
  ).id;
  for (const id of [everythingId, strictId]) expect((await testIntegration(handle.db, a, id)).ok).toBe(true);
  key = (await createApiKey(handle.db, a, { name: "runner" })).key;
}, 90_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await strict?.stop();
  useDatabase(undefined);
  await handle?.close();
});

/** POST /api/mcp/invoke, as an external system calls it. */
const rest = (toolName: string, params: Record<string, unknown>) => restInvoke(key, toolName, params);

async function strictCalls(): Promise<number> {
  const stats = (await (await fetch(`${strict.baseUrl}/stats`)).json()) as { toolCalls: number };
  return stats.toolCalls;
}

const runnerUsage = (tool: string) => usageRecordsOf(db(), a.orgId, "runner", tool);

describe("the integration page's tool runner", () => {
  it("refuses bad arguments with exactly the message and fields REST gives, before anything reaches the server", async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      [everythingId, "get-sum", { a: "nineteen", b: 23 }],
      [everythingId, "get-sum", { a: 19 }],
      [strictId, "book", { zeta: "Z", seats: 11 }],
      [strictId, "book", { zeta: "Z", seats: 2, email: "not an email", date: "2024-13-45" }],
      [strictId, "book", { seats: 1.5, surprise: true }],
    ];
    const callsBefore = await strictCalls();
    for (const [id, tool, args] of cases) {
      const listed = id === everythingId ? `everything_${tool}` : `strict_${tool}`;
      const runner = await appErrorOf(runIntegrationTool(db(), a, id, tool, { ...args }));
      const catalog = await appErrorOf(invokeTool(db(), a, listed, { ...args }, { surface: "rest" }));
      const viaRest = await rest(listed, args);
      expect(runner.code).toBe("bad_request:validation");
      expect(runner.status).toBe(400);
      expect(runner.message).toMatch(/^Invalid params: /);
      expect(runner.message).toBe(catalog.message);
      expect(runner.details?.fields).toEqual(catalog.details?.fields);
      expect(viaRest.status).toBe(400);
      expect(viaRest.body).toEqual(runner.toJSON());
    }
    // The counting server never saw one of those calls.
    expect(await strictCalls()).toBe(callsBefore);

    const sum = await appErrorOf(
      runIntegrationTool(db(), a, everythingId, "get-sum", { a: "nineteen", b: 23 }),
    );
    expect(sum.details?.fields).toEqual({ a: ["a must be number"] });
    const missing = await appErrorOf(runIntegrationTool(db(), a, everythingId, "get-sum", { a: 19 }));
    expect(missing.details?.fields).toEqual({ b: ["b is required"] });
    const range = await appErrorOf(runIntegrationTool(db(), a, strictId, "book", { zeta: "Z", seats: 11 }));
    expect(range.details?.fields).toEqual({ seats: ["seats must be <= 10"] });

    // Each refused call is recorded as failed validation, and none as having run.
    const refused = await runnerUsage("strict_book");
    expect(refused.length).toBeGreaterThanOrEqual(3);
    for (const row of refused)
      expect(row).toMatchObject({
        outcome: "failed",
        errorCode: "bad_request:validation",
        source: "integration",
        integrationId: strictId,
        userId: a.userId,
      });
  });

  it("runs a valid call on the server and records it with surface runner", async () => {
    const callsBefore = await strictCalls();
    const booked = await runIntegrationTool(db(), a, strictId, "book", { zeta: "Z", seats: 2 });
    expect(booked).toMatchObject({ isError: false, content: [{ type: "text", text: "booked Z for 2" }] });
    expect(await strictCalls()).toBe(callsBefore + 1);

    const sum = await runIntegrationTool(db(), a, everythingId, "get-sum", { a: 19, b: 23 });
    expect(sum.isError).toBe(false);
    expect(JSON.stringify(sum.content)).toContain("42");
    expect((await runnerUsage("strict_book")).filter((row) => row.outcome === "ok")).toHaveLength(1);
    expect(await runnerUsage("everything_get-sum")).toContainEqual(
      expect.objectContaining({
        outcome: "ok",
        source: "integration",
        integrationId: everythingId,
        userId: a.userId,
        errorCode: null,
      }),
    );
  });

  it("discovers an integration never discovered before running its tool, and says why when that fails", async () => {
    const fresh = await createIntegration(db(), a, {
      source: "custom",
      name: "Fresh",
      transport: "streamable-http",
      url: strict.url,
    });
    expect(fresh.discovered).toBeNull();
    const booked = await runIntegrationTool(db(), a, fresh.id, "book", { zeta: "F", seats: 1 });
    expect(booked.content).toEqual([{ type: "text", text: "booked F for 1" }]);
    const bad = await appErrorOf(runIntegrationTool(db(), a, fresh.id, "book", { zeta: "F", seats: 0 }));
    expect(bad.message).toBe("Invalid params: seats must be >= 1");

    const down = await createIntegration(db(), a, {
      source: "custom",
      name: "Down",
      transport: "streamable-http",
      url: "http://127.0.0.1:1/mcp",
    });
    const unreachable = await appErrorOf(
      runIntegrationTool(db(), a, down.id, "book", { zeta: "F", seats: 1 }),
    );
    expect(unreachable.status).toBe(503);
    expect(unreachable.message).toMatch(/^Could not connect to 127.0.0.1:1/);
  });

  it("answers an unknown tool and another organization's integration clearly", async () => {
    const unknown = await appErrorOf(runIntegrationTool(db(), a, strictId, "no-such-tool", {}));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe('The tool "no-such-tool" of Strict was not found.');
    expect(
      (await appErrorOf(runIntegrationTool(db(), b, strictId, "book", { zeta: "Z", seats: 1 }))).status,
    ).toBe(404);
  });

  it("refuses a disabled integration's tool, saying the integration is disabled", async () => {
    const callsBefore = await strictCalls();
    await setIntegrationEnabled(db(), a, strictId, false);
    try {
      const refused = await appErrorOf(
        runIntegrationTool(db(), a, strictId, "book", { zeta: "Z", seats: 2 }),
      );
      expect(refused.status).toBe(403);
      expect(refused.message).toBe('The integration "Strict" that provides strict_book is disabled.');
      expect(await strictCalls()).toBe(callsBefore);
    } finally {
      await setIntegrationEnabled(db(), a, strictId, true);
    }
  });
});
