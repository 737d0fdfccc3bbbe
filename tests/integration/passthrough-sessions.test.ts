import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFaultServer, startFaultServer } from "../fixtures/mcp/start-fixture";
import { connectPassThrough, passThroughFetch, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let fault: RunningFaultServer;
let key: string;
const clients: Client[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  const [a] = (await registerOwners(handle.db, "Sessa")) as [UserContext];
  fault = await startFaultServer();
  await addTestedIntegration(handle.db, a, { name: "Faulty", url: fault.url });
  key = (await createApiKey(handle.db, a, { name: "sessions" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await fault?.stop();
  useDatabase(undefined);
  await handle?.close();
});

async function client() {
  const connected = await connectPassThrough("faulty", key);
  clients.push(connected);
  return connected;
}

/** What the upstream session of this client's calls holds: its switch, log level and subscriptions. */
async function upstreamState(of: Client) {
  return JSON.parse(textOf(await of.callTool({ name: "state", arguments: {} }))) as {
    toggled: boolean;
    subscriptions: string[];
  };
}

/** A lone tools/call without a session, answered as JSON. */
async function statelessCall(name: string) {
  const response = await passThroughFetch("faulty")("http://localhost:3000/api/mcp/integrations/faulty", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });
  return textOf(((await response.json()) as { result: unknown }).result);
}

describe("a pass-through client's session", () => {
  it("has an upstream session of its own: one client's settings there never reach another", async () => {
    const [first, second] = [await client(), await client()];
    expect(textOf(await first.callTool({ name: "toggle", arguments: {} }))).toBe("true");
    await first.subscribeResource({ uri: "fault://work" });

    expect(await upstreamState(first)).toMatchObject({ toggled: true, subscriptions: ["fault://work"] });
    expect(await upstreamState(second)).toMatchObject({ toggled: false, subscriptions: [] });
    // Calls without a session share one pooled session, which neither client's settings reach.
    expect(JSON.parse(await statelessCall("state"))).toMatchObject({ toggled: false, subscriptions: [] });
    expect(await statelessCall("toggle")).toBe("true");
    expect(await upstreamState(second)).toMatchObject({ toggled: false });
  });

  it("ends its upstream session when the client ends its own", async () => {
    const ending = await client();
    await ending.callTool({ name: "toggle", arguments: {} });
    const before = await fault.stats();
    // The SDK's client ends its session (DELETE) when asked to.
    await (ending.transport as StreamableHTTPClientTransport).terminateSession();
    expect((await fault.stats()).deleted).toBe(before.deleted + 1);
  });
});
