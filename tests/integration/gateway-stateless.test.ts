import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import { GATEWAY_URL, gatewayFetch, textOf, useDatabase } from "./gateway-client";
import { describeOnPostgres } from "./on-postgres";
import { registerOwners } from "./org-users";
import { connectRevision, type RevisionClient } from "./revision-clients";
import { openSecondInstance } from "./second-instance";
import { createTestDatabase } from "./test-db";

let handle: DatabaseHandle;
let owner: UserContext;
let key: string;
let otherKey: string;
const servers: RunningFixture[] = [];
const clients: RevisionClient[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  const everything = await startEverything("streamableHttp");
  const changing = await startFixture("sessions");
  servers.push(everything, changing);
  for (const [name, server] of [
    ["Everything", everything],
    ["Changing", changing],
  ] as const) {
    const integration = await createIntegration(handle.db, owner, {
      source: "custom",
      name,
      transport: "streamable-http",
      url: server.url,
    });
    expect((await testIntegration(handle.db, owner, integration.id)).ok).toBe(true);
  }
  key = (await createApiKey(handle.db, owner, { name: "stateless" })).key;
  otherKey = (await createApiKey(handle.db, owner, { name: "another" })).key;
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all(servers.map((server) => server.stop()));
  useDatabase(undefined);
  await handle?.close();
});

const envelope = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

/** A 2026-07-28 tools/call written by hand, with the routing headers the revision asks for. */
async function modernCall(bearer: string, params: Record<string, unknown>) {
  const response = await gatewayFetch(GATEWAY_URL, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bearer}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": String(params.name),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (text.match(/^data: (\{.*"id":1.*)$/m)?.[1] ?? "{}");
  return { status: response.status, headers: response.headers, body: JSON.parse(json) };
}

describe("a 2026-07-28 call that asks its client a question", () => {
  const elicitation = "everything_trigger-elicitation-request";
  const asked = () =>
    modernCall(key, { name: elicitation, arguments: {}, _meta: envelope({ elicitation: {} }) });

  it("answers input_required with the question and a signed requestState, and no session", async () => {
    const first = await asked();
    expect(first.headers.get("mcp-session-id")).toBeNull();
    const { result } = first.body;
    expect(result.resultType).toBe("input_required");
    const questions = Object.entries(result.inputRequests) as [string, { method: string }][];
    expect(questions.map(([, question]) => question.method)).toEqual(["elicitation/create"]);
    const [questionKey] = questions[0] as [string, unknown];
    const done = await modernCall(key, {
      name: elicitation,
      arguments: {},
      _meta: envelope({ elicitation: {} }),
      inputResponses: { [questionKey]: { action: "accept", content: { name: "Grace", check: true } } },
      requestState: result.requestState,
    });
    expect(done.body.result.resultType).toBe("complete");
    expect(textOf(done.body.result)).toContain("- Name: Grace");
  });

  it("asks again when the answer is missing or malformed, and refuses a requestState that was tampered with", async () => {
    const { result } = (await asked()).body;
    const [questionKey] = Object.keys(result.inputRequests);
    const again = await modernCall(key, {
      name: elicitation,
      arguments: {},
      _meta: envelope({ elicitation: {} }),
      inputResponses: { [questionKey as string]: 12345, unrelated: { action: "accept" } },
      requestState: result.requestState,
    });
    expect(again.body.result.resultType).toBe("input_required");
    expect(Object.keys(again.body.result.inputRequests)).toEqual([questionKey]);
    const tampered = await modernCall(key, {
      name: elicitation,
      arguments: {},
      _meta: envelope({ elicitation: {} }),
      inputResponses: {},
      requestState: `${again.body.result.requestState.slice(0, -4)}AAAA`,
    });
    expect(tampered.body.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  });

  it("lets only the key that made the call go on with it", async () => {
    const { result } = (await asked()).body;
    const [questionKey] = Object.keys(result.inputRequests);
    const stolen = await modernCall(otherKey, {
      name: elicitation,
      arguments: {},
      _meta: envelope({ elicitation: {} }),
      inputResponses: { [questionKey as string]: { action: "accept", content: { name: "Mallory" } } },
      requestState: result.requestState,
    });
    expect(stolen.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/call the tool again/),
    });
  });

  it("tells the upstream server the client cannot answer when the request does not declare elicitation", async () => {
    const { body } = await modernCall(key, { name: elicitation, arguments: {}, _meta: envelope() });
    expect(body.result.isError).toBe(true);
    expect(textOf(body.result)).toMatch(/cannot take elicitation/);
  });
});

describeOnPostgres("a 2026-07-28 client served by two instances in turn", () => {
  let other: DatabaseHandle;
  beforeAll(() => {
    other = openSecondInstance(handle.db);
  });
  afterAll(async () => {
    useDatabase(handle);
    await other?.close();
  });

  it("gets every answer from whichever instance takes the request, its questions' answers included", async () => {
    const instances = [handle, other];
    const served: { instance: number; body: string }[] = [];
    let turn = 0;
    const alternating = (url: string | URL, init?: RequestInit) => {
      const instance = turn++ % 2;
      served.push({ instance, body: String(init?.body ?? "") });
      useDatabase(instances[instance]);
      return gatewayFetch(url, init);
    };
    const client = await connectRevision("2026-07-28", GATEWAY_URL, alternating, key, {
      elicit: () => ({ name: "Ada Lovelace", check: true }),
      sample: (prompt) => `echo: ${prompt}`,
    });
    clients.push(client);
    // A change made through one instance reaches a listen stream the other holds.
    const changed = client.toolsChanged();
    expect((await client.listTools()).map((tool) => tool.name)).toContain("everything_echo");
    expect(textOf(await client.callTool("everything_echo", { message: "one" }))).toBe("Echo: one");
    const progress: number[] = [];
    await client.callTool("everything_trigger-long-running-operation", { duration: 1, steps: 2 }, (update) =>
      progress.push(update.progress),
    );
    expect(progress).toEqual([1, 2]);
    for (const [tool, args, expected] of [
      ["everything_trigger-elicitation-request", {}, "- Name: Ada Lovelace"],
      ["everything_trigger-sampling-request", { prompt: "hi", maxTokens: 5 }, "echo: Resource"],
    ] as const) {
      const before = served.length;
      expect(textOf(await client.callTool(tool, args))).toContain(expected);
      const rounds = served.slice(before).filter((request) => request.body.includes(tool));
      // The question was asked by one instance and its answer taken by the other.
      expect(rounds).toHaveLength(2);
      expect(rounds[0]?.body).not.toContain("inputResponses");
      expect(rounds[1]?.body).toContain("inputResponses");
      expect(rounds[0]?.instance).not.toBe(rounds[1]?.instance);
    }
    await client.callTool("changing_add_tool", { name: "across" });
    await changed;
    expect(new Set(served.map((request) => request.instance))).toEqual(new Set([0, 1]));
  });
});
