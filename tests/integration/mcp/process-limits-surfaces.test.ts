import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { getEnv } from "@/lib/env";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { buildConnectionConfig } from "@/lib/mcp/connection-config";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import type { IntegrationView } from "@/lib/mcp/integrations/integration-view";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { findIntegrationForOrg } from "@/lib/mcp/repository";
import { callTool } from "@/lib/tools/catalog";
import { connectGateway, textOf, useDatabase } from "../gateway-client";
import { registerOwners } from "../org-users";
import { restInvoke } from "../rest-client";
import { createTestDatabase } from "../test-db";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

// Small limits, read once when the environment is first parsed (before anything in this file runs).
vi.hoisted(() => {
  process.env.MCP_MAX_PROCESSES_PER_ORG = "1";
  process.env.MCP_MAX_PROCESSES = "2";
});

const ORG_LIMIT =
  "This organization already runs 1 local MCP server process, the limit set by MCP_MAX_PROCESSES_PER_ORG, and none is idle. Disable an integration or raise the limit.";
const SERVER_LIMIT =
  "This server already runs 2 local MCP server processes, the limit set by MCP_MAX_PROCESSES, and none is idle. Try again shortly, or ask the operator to raise the limit.";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let c: UserContext;
let busy: IntegrationView;
let waiting: IntegrationView;
let key: string;
let gateway: Client;
const releases: (() => Promise<void>)[] = [];
const pool = () => getMcpClient().pool;

/** Keeps a call in flight on the integration's pooled session, as a long tool call would, until released. */
async function hold(ctx: UserContext, integrationId: string) {
  const row = await findIntegrationForOrg(handle.db, ctx.orgId, integrationId);
  if (!row) throw new Error("no such integration");
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let opened = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const call = pool().withSession(buildConnectionConfig(row), async () => {
    opened();
    await gate;
  });
  await Promise.race([open, call]);
  const done = async () => {
    release();
    await call.catch(() => {});
  };
  releases.push(done);
  return done;
}

/** POST /api/mcp/invoke, as an external system calls it. */
const rest = (toolName: string, params: Record<string, unknown>) => restInvoke(key, toolName, params);

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b, c] = (await registerOwners(handle.db, "Ann", "Ben", "Cy")) as [
    UserContext,
    UserContext,
    UserContext,
  ];
  busy = await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything", name: "Busy" });
  waiting = await createIntegration(handle.db, a, {
    source: "catalog",
    presetKey: "everything",
    name: "Waiting",
  });
  // Both answer once, one after the other: the second start closes the first, idle, to stay within the limit.
  for (const integration of [busy, waiting])
    expect((await testIntegration(handle.db, a, integration.id)).ok).toBe(true);
  expect(pool().processCount(a.orgId)).toBe(1);
  await hold(a, busy.id);
  key = (await createApiKey(handle.db, a, { name: "limits" })).key;
  gateway = await connectGateway(key);
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await Promise.all(releases.map((release) => release()));
  await pool().closeAll();
  useDatabase(undefined);
  await handle?.close();
});

describe("an organization at its limit of local server processes, all busy", () => {
  it("reads the limits from the environment", () => {
    expect([getEnv().MCP_MAX_PROCESSES, getEnv().MCP_MAX_PROCESSES_PER_ORG]).toEqual([2, 1]);
    expect(pool().processCount(a.orgId)).toBe(1);
  });

  it("shows the limit in Test connection, without marking the integration failing", async () => {
    expect(await testIntegration(handle.db, a, waiting.id)).toEqual({
      ok: false,
      latencyMs: expect.any(Number),
      error: ORG_LIMIT,
    });
    expect((await getIntegration(handle.db, a, waiting.id)).status).toBe("connected");
  });

  it("answers REST with a 503 that says which limit and what to do", async () => {
    expect(await rest(`${waiting.slug}_echo`, { message: "hi" })).toEqual({
      status: 503,
      body: { error: ORG_LIMIT, code: "unavailable:mcp_process_limit" },
    });
  });

  it("gives the gateway's client an error result for a tool, and a JSON-RPC error for a resource", async () => {
    const result = await gateway.callTool({ name: `${waiting.slug}_echo`, arguments: { message: "hi" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(ORG_LIMIT);
    const { resources } = await gateway.listResources();
    const resource = resources.find((r) => r.uri.startsWith(`switchboard://${waiting.slug}/`));
    if (!resource) throw new Error("no resource of the waiting integration");
    await expect(gateway.readResource({ uri: resource.uri })).rejects.toThrow(ORG_LIMIT);
  });

  it("starts the chat without it, reporting why, and answers its tool calls with the message", async () => {
    const agent = await ensureDefaultAgent(handle.db, a.orgId);
    const conversation = await createConversation(handle.db, a, agent.id);
    const prepared = await prepareConversation(handle.db, a, conversation);
    expect(prepared.discovery.integrations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ integrationId: busy.id, status: "connected" }),
        expect.objectContaining({ integrationId: waiting.id, status: "failed", message: ORG_LIMIT }),
      ]),
    );
    expect(Object.keys(prepared.active.tools)).toContain(`${busy.slug}_echo`);
    const call = await callTool(
      handle.db,
      a,
      `${waiting.slug}_echo`,
      { message: "hi" },
      {
        surface: "chat",
      },
    );
    expect(call).toMatchObject({ isError: true, errorMessage: ORG_LIMIT });
  });

  it("lets other organizations start servers up to the server's limit", async () => {
    const memoryOf = (ctx: UserContext) =>
      createIntegration(handle.db, ctx, { source: "catalog", presetKey: "memory" });
    const [ofB, ofC] = [await memoryOf(b), await memoryOf(c)];
    expect((await testIntegration(handle.db, b, ofB.id)).ok).toBe(true);
    const releaseB = await hold(b, ofB.id);
    expect(pool().processCount()).toBe(2);
    expect(await testIntegration(handle.db, c, ofC.id)).toMatchObject({ ok: false, error: SERVER_LIMIT });
    // Once idle, b's server makes room for c's.
    await releaseB();
    expect((await testIntegration(handle.db, c, ofC.id)).ok).toBe(true);
    expect([pool().processCount(b.orgId), pool().processCount(c.orgId)]).toEqual([0, 1]);
  });

  it("frees the place when the busy integration is disabled", async () => {
    await setIntegrationEnabled(handle.db, a, busy.id, false);
    expect(pool().processCount(a.orgId)).toBe(0);
    expect((await testIntegration(handle.db, a, waiting.id)).ok).toBe(true);
    expect(pool().processCount(a.orgId)).toBe(1);
  });
});
