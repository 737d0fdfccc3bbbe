import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { healthHistory, runHealthRound } from "@/lib/health/health-round";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { type RunningFixture, startEverything } from "../fixtures/mcp/start-fixture";
import { connectGateway, connectPassThrough, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";
import { usageRecordsOf } from "./usage-records";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let everything: RunningFixture;
let integrationId: string;
let key: string;
const clients: Client[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Remi")) as [UserContext];
  // The reference server over Streamable HTTP, which answers a session it forgot with HTTP 400.
  everything = await startEverything("streamableHttp");
  integrationId = await addTestedIntegration(handle.db, a, { name: "Remote", url: everything.url });
  key = (await createApiKey(handle.db, a, { name: "restart" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await everything?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const rest = (message: string) => restInvoke(key, "remote_echo", { message });

/** Stops the server and starts it again on the same port: it has forgotten every session. */
async function restart() {
  const port = everything.port;
  await everything.stop();
  everything = await startEverything("streamableHttp", { port });
}

describe("the reference server restarting", () => {
  it("costs no call on any surface: each reconnects and goes on, and says so on the integration", async () => {
    const gateway = await connectGateway(key);
    const passThrough = await connectPassThrough("remote", key);
    clients.push(gateway, passThrough);
    expect((await rest("before")).status).toBe(200);
    expect(textOf(await gateway.callTool({ name: "remote_echo", arguments: { message: "before" } }))).toBe(
      "Echo: before",
    );
    expect(textOf(await passThrough.callTool({ name: "echo", arguments: { message: "before" } }))).toBe(
      "Echo: before",
    );
    const before = (await usageRecordsOf(handle.db, a.orgId)).length;

    await restart();

    // The first call of each surface after the restart answers.
    expect(await rest("after")).toEqual({
      status: 200,
      body: { content: [{ type: "text", text: "Echo: after" }] },
    });
    expect(textOf(await gateway.callTool({ name: "remote_echo", arguments: { message: "after" } }))).toBe(
      "Echo: after",
    );
    expect(textOf(await passThrough.callTool({ name: "echo", arguments: { message: "after" } }))).toBe(
      "Echo: after",
    );
    // One record per call: a call retried on a new session is still one call.
    const records = (await usageRecordsOf(handle.db, a.orgId)).slice(before);
    expect(records.map((record) => record.outcome)).toEqual(["ok", "ok", "ok"]);

    // The state is written as it changes, beside the call.
    const stateShown = async () => (await getIntegration(handle.db, a, integrationId)).state;
    await expect.poll(stateShown).toMatchObject({
      state: "degraded",
      cause: "the server restarted and forgot our session; reconnected",
    });
    // Three calls that go well later, it is healthy again.
    for (const word of ["one", "two", "three"]) expect((await rest(word)).status).toBe(200);
    await expect.poll(async () => (await stateShown())?.state).toBe("healthy");
  });

  it("is checked by the health round on a connection of its own, so a forgotten session never passes for a dead server", async () => {
    expect((await rest("warm")).status).toBe(200);
    await restart();
    expect(
      await runHealthRound(handle, { intervalMs: 60_000, now: new Date("2026-06-01T10:00:00Z") }),
    ).toEqual({
      ran: true,
      checked: 1,
    });
    const [check] = await healthHistory(handle.db, integrationId);
    expect(check).toMatchObject({ status: "up", error: null });
    expect((await getIntegration(handle.db, a, integrationId)).status).toBe("connected");
    // The pooled session it left alone recovers on the next call.
    expect((await rest("after the check")).status).toBe(200);
  });

  it("refuses calls at once while the server is down, names why, and comes back by itself when it returns", async () => {
    expect((await rest("warm")).status).toBe(200);
    const port = everything.port;
    await everything.stop();
    const first = await rest("down");
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({
      code: "unavailable:mcp_integration",
      tool_name: "remote_echo",
      error: expect.stringMatching(
        /^Remote is unavailable\. Could not connect to 127\.0\.0\.1:\d+: connection refused\.$/,
      ),
      integration: { id: integrationId, name: "Remote" },
    });
    const second = await rest("down again");
    expect(second.body).toMatchObject({
      integration: { state: "failing", cause: "connection refused" },
    });
    everything = await startEverything("streamableHttp", { port });
    // No call needed: the probe finds it answering again.
    await expect
      .poll(() => getMcpClient().stateOf(integrationId)?.state, { timeout: 10_000 })
      .toBe("healthy");
    await expect
      .poll(async () => (await getIntegration(handle.db, a, integrationId)).state)
      .toMatchObject({
        state: "healthy",
        cause: expect.stringMatching(/^answering again after \d+ s$/),
      });
    expect((await rest("back")).status).toBe(200);
  });
});
