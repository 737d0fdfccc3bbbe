import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { addIntegrations, GATEWAY_URL, gatewayFetch, passThroughFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let slow: RunningFixture;
let suite: RunningFixture;
const keys: Record<"plain" | "metaOnly", string> = { plain: "", metaOnly: "" };

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Caller")) as [UserContext];
  slow = await startFixture("slow");
  suite = await startFixture("conformance");
  await addIntegrations(handle.db, owner, { Slow: slow, Suite: suite });
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
  await suite?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { roots: {} },
};

async function answer(
  at: { url: string; fetch: typeof gatewayFetch },
  key: string,
  id: number | string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = envelope,
) {
  const response = await at.fetch(at.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": String(params.name),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { ...params, _meta: meta } }),
  });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

// Naming a log level sends the request to the SDK's handler (the answer may then carry log messages); none of
// these calls logs at "emergency", so its answer is what the SDK answers for the same call.
const bySdk = { ...envelope, "io.modelcontextprotocol/logLevel": "emergency" };

describe("a lone 2026-07-28 tools/call", () => {
  const gateway = { url: GATEWAY_URL, fetch: gatewayFetch };
  const passThrough = {
    url: "http://localhost:3000/api/mcp/integrations/slow",
    fetch: passThroughFetch("slow"),
  };
  it.each([
    ["an integration's tool", 1, { name: "slow_echo", arguments: { message: "hi" } }],
    ["with a text id", "t-1", { name: "slow_echo", arguments: { message: "hi" } }],
    ["arguments that break the tool's schema", 2, { name: "slow_echo", arguments: { message: 7 } }],
    ["a capability", 3, { name: "mcp__calls__sum", arguments: { a: 2, b: 3 } }],
    ["a built-in", 4, { name: "node_knowledge_retriever", arguments: { query: "nothing here" } }],
    ["a tool that is not there", 5, { name: "no_such_tool", arguments: {} }],
    ["find_tools", 6, { name: "find_tools", arguments: { query: "echo", limit: 3 } }],
    ["call_tool", 7, { name: "call_tool", arguments: { name: "slow_echo", arguments: { message: "via" } } }],
    ["no arguments at all", 8, { name: "slow_echo" }],
    ["a tool that answers an error", 9, { name: "suite_test_error_handling", arguments: {} }],
    ["a tool that answers an image", 10, { name: "suite_test_image_content", arguments: {} }],
  ])(
    "through the gateway, answers %s byte for byte as the SDK's handler answers it",
    async (_case, id, params) => {
      for (const key of Object.values(keys)) {
        const fast = await answer(gateway, key, id, params);
        const sdk = await answer(gateway, key, id, params, bySdk);
        expect(fast.status).toBe(200);
        expect(fast.type).toBe(sdk.type);
        expect(fast.text).toBe(sdk.text);
      }
    },
  );

  it.each([
    ["a tool", { name: "echo", arguments: { message: "hi" } }],
    ["arguments that break its schema", { name: "echo", arguments: { message: 7 } }],
    ["a tool the server does not have", { name: "nothing", arguments: {} }],
  ])(
    "through the pass-through, answers %s byte for byte as the SDK's handler answers it",
    async (_case, params) => {
      const fast = await answer(passThrough, keys.plain, 1, params);
      const sdk = await answer(passThrough, keys.plain, 1, params, bySdk);
      expect(fast.type).toBe(sdk.type);
      expect(fast.text).toBe(sdk.text);
    },
  );

  it("runs the call it answers, stamped as the revision asks", async () => {
    const echoed = JSON.parse(
      (await answer(gateway, keys.plain, 1, { name: "slow_echo", arguments: { message: "hi" } })).text,
    );
    expect(echoed).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [{ type: "text", text: "Echo: hi" }],
        resultType: "complete",
        _meta: {
          "io.modelcontextprotocol/serverInfo": {
            name: "switchboard",
            title: "Switchboard",
            version: "0.1.0",
          },
        },
      },
    });
  });

  it("leaves to the SDK what it refuses, with its own answers", async () => {
    const mismatch = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${keys.plain}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "another_tool",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow_echo", arguments: { message: "hi" }, _meta: envelope },
      }),
    });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).error.code).toBe(-32020);
    // A tool that mirrors an argument in a header has its headers checked by the SDK.
    const unmirrored = await answer(gateway, keys.plain, 2, {
      name: "suite_test_header_param",
      arguments: { region: "eu" },
    });
    expect(unmirrored.status).toBe(400);
    expect(JSON.parse(unmirrored.text).error.code).toBe(-32020);
  });
});
