import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageRecords } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { flushUsage } from "@/lib/usage/record-usage";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let slow: RunningFixture;
const keys: Record<"plain" | "metaOnly", string> = { plain: "", metaOnly: "" };

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Caller")) as [UserContext];
  // A real server with a quick tool (echo) and one that waits until it is cancelled (sleep).
  slow = await startFixture("slow");
  const integration = await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Slow",
    transport: "streamable-http",
    url: slow.url,
  });
  expect((await testIntegration(handle.db, owner, integration.id)).ok).toBe(true);
  await createCapability(handle.db, owner, {
    namespace: "calls",
    action: "sum",
    description: "Adds a and b",
    parametersSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    code: "return { sum: args.a + args.b };",
  });
  keys.plain = (await createApiKey(handle.db, owner, { name: "plain" })).key;
  keys.metaOnly = (await createApiKey(handle.db, owner, { name: "meta", metaToolsOnly: true })).key;
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await slow?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

function post(
  key: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  return gatewayFetch(GATEWAY_URL, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, ...(init.headers ?? HEADERS) },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

async function answer(key: string, body: unknown, headers?: Record<string, string>) {
  const response = await post(key, body, { headers });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

const call = (id: number | string, params: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params,
});

describe("the gateway's tools/call without a session", () => {
  it.each([
    ["an integration's tool", call(1, { name: "slow_echo", arguments: { message: "hi" } })],
    [
      "with a text id and a progress token",
      call("t-1", { name: "slow_echo", arguments: { message: "hi" }, _meta: { progressToken: 4 } }),
    ],
    ["arguments that break the tool's schema", call(2, { name: "slow_echo", arguments: { message: 7 } })],
    ["a capability", call(3, { name: "mcp__calls__sum", arguments: { a: 2, b: 3 } })],
    ["a built-in", call(4, { name: "node_knowledge_retriever", arguments: { query: "nothing here" } })],
    ["a tool that is not there", call(5, { name: "no_such_tool", arguments: {} })],
    ["find_tools", call(6, { name: "find_tools", arguments: { query: "echo", limit: 3 } })],
    ["find_tools with a limit out of range", call(7, { name: "find_tools", arguments: { limit: 0 } })],
    [
      "call_tool",
      call(8, { name: "call_tool", arguments: { name: "slow_echo", arguments: { message: "via" } } }),
    ],
    ["call_tool without a name", call(9, { name: "call_tool", arguments: {} })],
    ["no arguments at all", call(10, { name: "slow_echo" })],
    ["params the SDK refuses", call(11, { arguments: {} })],
  ])("answers %s byte for byte as the SDK server answers it in a batch", async (_case, request) => {
    for (const key of Object.values(keys)) {
      const lone = await answer(key, request);
      // A batch is always the SDK server's to answer; for one request it answers with one response, not a list.
      const batch = await answer(key, [request]);
      expect(lone.status).toBe(200);
      expect(lone.type).toBe(batch.type);
      expect(lone.text).toBe(batch.text);
    }
  });

  it("runs the call it answers", async () => {
    const echoed = JSON.parse(
      (await answer(keys.plain, call(1, { name: "slow_echo", arguments: { message: "hi" } }))).text,
    );
    expect(echoed).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "Echo: hi" }] },
    });
    const summed = JSON.parse(
      (await answer(keys.plain, call(2, { name: "mcp__calls__sum", arguments: { a: 2, b: 3 } }))).text,
    );
    expect(summed.result.structuredContent).toEqual({ sum: 5 });
  });

  it("leaves what the SDK's transport refuses to it, with its own answers", async () => {
    const request = call(1, { name: "slow_echo", arguments: { message: "hi" } });
    const notAccepting = await answer(keys.plain, request, { ...HEADERS, accept: "application/json" });
    expect(notAccepting.status).toBe(406);
    const unknownVersion = await answer(keys.plain, request, {
      ...HEADERS,
      "mcp-protocol-version": "1999-01-01",
    });
    expect(unknownVersion.status).toBe(400);
    expect(unknownVersion.text).toMatch(/Unsupported protocol version/);
    const notJsonRpc = await answer(keys.plain, { ...request, extra: true });
    expect(notJsonRpc.status).toBe(400);
    expect(JSON.parse(notJsonRpc.text)).toMatchObject({ error: { code: -32600 } });
  });

  it("cancels the upstream call when the client hangs up", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const response = post(keys.plain, call(1, { name: "slow_sleep", arguments: { ms: 60_000 } }), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 500);
    await response.catch(() => undefined);
    const sleeps = () =>
      handle.db
        .select({ outcome: usageRecords.outcome, latencyMs: usageRecords.latencyMs })
        .from(usageRecords)
        .where(and(eq(usageRecords.organizationId, owner.orgId), eq(usageRecords.tool, "slow_sleep")));
    // The call ends when the client goes, not when the tool would have answered.
    await expect
      .poll(
        async () => {
          await flushUsage(handle.db);
          return sleeps();
        },
        { timeout: 10_000 },
      )
      .toHaveLength(1);
    const [record] = await sleeps();
    expect(record?.outcome).not.toBe("ok");
    expect(record?.latencyMs).toBeLessThan(30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
