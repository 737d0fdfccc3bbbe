import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import {
  addIntegrations,
  envelope,
  GATEWAY_URL,
  gatewayFetch,
  modernRequest,
  passThroughFetch,
  textOf,
  useDatabase,
} from "./gateway-client";
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
  await addIntegrations(handle.db, owner, { Everything: everything, Changing: changing });
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

const modernCall = (bearer: string, params: Record<string, unknown>) =>
  modernRequest(bearer, "tools/call", params);

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

  it("keeps a waiting call's session out of reach of 2025 session requests", async () => {
    const { result } = (await asked()).body;
    // The state is signed, not encrypted: its session is readable, and of no use as a session.
    const [, payload] = String(result.requestState).split(".");
    const sessionId = JSON.parse(Buffer.from(payload as string, "base64url").toString("utf8")).p.s;
    expect(sessionId).toMatch(/^[\w-]{40,}$/);
    const asSession = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(asSession.status).toBe(404);
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

describe("tasks for a 2026-07-28 client that takes them (the io.modelcontextprotocol/tasks extension)", () => {
  const tasks = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  const passThroughUrl = "http://localhost:3000/api/mcp/integrations/everything";
  const through = {
    gateway: { tool: "everything_simulate-research-query", url: GATEWAY_URL, fetch: gatewayFetch },
    "pass-through": {
      tool: "simulate-research-query",
      url: passThroughUrl,
      fetch: passThroughFetch("everything"),
    },
  };
  const untilEnded = async (
    taskId: string,
    at: (typeof through)[keyof typeof through],
    capabilities: Record<string, unknown> = tasks,
  ) => {
    for (;;) {
      const { body } = await modernRequest(key, "tasks/get", { taskId, _meta: envelope(capabilities) }, at);
      if (!["working", "input_required"].includes(body.result?.status)) return body;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it.each(Object.keys(through) as (keyof typeof through)[])(
    "offers the extension, runs a tool its server runs as a task as a task, and inlines its result (%s)",
    async (kind) => {
      const at = through[kind];
      const discovered = await modernRequest(
        key,
        "server/discover",
        { _meta: envelope(tasks) },
        { ...at, name: "" },
      );
      expect(discovered.body.result.capabilities.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
      const created = await modernRequest(
        key,
        "tools/call",
        { name: at.tool, arguments: { topic: "tides" }, _meta: envelope(tasks) },
        at,
      );
      expect(created.body.result).toMatchObject({
        resultType: "task",
        status: "working",
        ttlMs: expect.any(Number),
      });
      const ended = await untilEnded(created.body.result.taskId, at);
      expect(ended.result).toMatchObject({ taskId: created.body.result.taskId, status: "completed" });
      expect(textOf(ended.result.result)).toContain("# Research Report: tides");
    },
  );

  it("waits in input_required for an answer given with tasks/update, then goes on", async () => {
    const at = through.gateway;
    const capabilities = { ...tasks, elicitation: {} };
    const { body } = await modernCall(key, {
      name: at.tool,
      arguments: { topic: "python", ambiguous: true },
      _meta: envelope(capabilities),
    });
    const taskId = body.result.taskId as string;
    let waiting: { result: { status: string; inputRequests?: Record<string, { method: string }> } };
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      waiting = (await modernRequest(key, "tasks/get", { taskId, _meta: envelope(capabilities) })).body;
    } while (waiting.result.status === "working");
    expect(waiting.result.status).toBe("input_required");
    const [[questionKey, question]] = Object.entries(waiting.result.inputRequests ?? {}) as [
      [string, { method: string }],
    ];
    expect(question.method).toBe("elicitation/create");
    const updated = await modernRequest(key, "tasks/update", {
      taskId,
      inputResponses: { [questionKey]: { action: "accept", content: { interpretation: "programming" } } },
      _meta: envelope(capabilities),
    });
    expect(updated.body.result).toMatchObject({ resultType: "complete" });
    const ended = await untilEnded(taskId, at, capabilities);
    expect(textOf(ended.result.result)).toContain("programming");
  });

  it("cancels a task, and refuses tasks to a client that does not take them and to another key", async () => {
    const { body } = await modernCall(key, {
      name: through.gateway.tool,
      arguments: { topic: "cancel me" },
      _meta: envelope(tasks),
    });
    const taskId = body.result.taskId as string;
    const refused = await modernRequest(key, "tasks/get", { taskId, _meta: envelope() });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(-32021);
    const stranger = await modernRequest(otherKey, "tasks/get", { taskId, _meta: envelope(tasks) });
    expect(stranger.body.error.code).toBe(-32602);
    const cancelled = await modernRequest(key, "tasks/cancel", { taskId, _meta: envelope(tasks) });
    expect(cancelled.body.result).toMatchObject({ resultType: "complete" });
    expect((await untilEnded(taskId, through.gateway)).result.status).toBe("cancelled");
  });

  it("answers a tool it runs as a task at once to a client that does not take tasks", async () => {
    const { body } = await modernCall(key, {
      name: through.gateway.tool,
      arguments: { topic: "now" },
      _meta: envelope(),
    });
    expect(body.result.resultType).toBe("complete");
    expect(textOf(body.result)).toContain("# Research Report: now");
  });
});
