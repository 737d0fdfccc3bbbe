import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startEverything } from "../fixtures/mcp/start-fixture";
import {
  addIntegrations,
  GATEWAY_URL,
  gatewayFetch,
  passThroughFetch,
  textOf,
  useDatabase,
} from "./gateway-client";
import { describeOnPostgres } from "./on-postgres";
import { registerOwners } from "./org-users";
import { openSecondInstance } from "./second-instance";
import { createTestDatabase } from "./test-db";

let handle: DatabaseHandle;
let key: string;
let sameOrgKey: string;
let strangerKey: string;
let everything: RunningFixture;
const clients: Client[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  const [owner, stranger] = (await registerOwners(handle.db, "Tess", "Stan")) as [UserContext, UserContext];
  everything = await startEverything("streamableHttp");
  await addIntegrations(handle.db, owner, { Everything: everything });
  await addIntegrations(handle.db, stranger, { Everything: everything });
  key = (await createApiKey(handle.db, owner, { name: "tasks" })).key;
  sameOrgKey = (await createApiKey(handle.db, owner, { name: "other key" })).key;
  strangerKey = (await createApiKey(handle.db, stranger, { name: "stranger" })).key;
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await everything?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const PASS_THROUGH_URL = "http://localhost:3000/api/mcp/integrations/everything";
const through = {
  gateway: { tool: "everything_simulate-research-query", url: GATEWAY_URL, fetch: gatewayFetch },
  "pass-through": {
    tool: "simulate-research-query",
    url: PASS_THROUGH_URL,
    fetch: passThroughFetch("everything") as typeof fetch,
  },
};
type Through = (typeof through)[keyof typeof through];

/** The MCP SDK's own client (2025-11-25) in a session on the endpoint, with this key. */
async function sessionClient(at: Through, bearer = key, fetch: typeof gatewayFetch = at.fetch) {
  const client = new Client({ name: "tasks-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(at.url), {
      fetch,
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** A session client that takes elicitation and answers every question with `interpretation`, keeping what it was asked. */
async function answeringClient(at: Through, fetch: typeof gatewayFetch = at.fetch) {
  const asked: ElicitRequest["params"][] = [];
  const client = new Client({ name: "tasks-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return { action: "accept", content: { interpretation: "historical" } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(at.url), {
      fetch,
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return { client, asked };
}

/** Calls the ambiguous research query as a task to its end: the task's statuses and its result. */
async function ambiguousTask(client: Client, at: Through, topic: string) {
  const statuses: string[] = [];
  let taskId = "";
  let result: unknown;
  for await (const message of client.experimental.tasks.callToolStream(
    { name: at.tool, arguments: { topic, ambiguous: true } },
    CallToolResultSchema,
    { task: {} },
  )) {
    if (message.type === "taskCreated") taskId = message.task.taskId;
    if (message.type === "taskStatus") statuses.push(message.task.status);
    if (message.type === "result") result = message.result;
    if (message.type === "error") throw message.error;
  }
  return { taskId, statuses, result };
}

/** Starts a task-augmented tools/call, answered at once with the task. */
async function startTask(client: Client, at: Through, topic: string) {
  const created = await client.request(
    { method: "tools/call", params: { name: at.tool, arguments: { topic }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

const refusal = (outcome: Promise<unknown>) =>
  outcome.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("a 2025-11-25 session client's tasks, through each endpoint", () => {
  it("declares tasks in its capabilities", async () => {
    for (const at of Object.values(through)) {
      const client = await sessionClient(at);
      expect(client.getServerCapabilities()?.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
    }
  });

  it.each(Object.keys(through) as (keyof typeof through)[])(
    "calls a task-required tool as a task, polls it, gets its result and lists it (%s)",
    async (kind) => {
      const at = through[kind];
      const client = await sessionClient(at);
      const seen: string[] = [];
      let taskId = "";
      let result: unknown;
      for await (const message of client.experimental.tasks.callToolStream(
        { name: at.tool, arguments: { topic: "tides" } },
        CallToolResultSchema,
        { task: {} },
      )) {
        seen.push(message.type);
        if (message.type === "taskCreated") taskId = message.task.taskId;
        if (message.type === "result") result = message.result;
        if (message.type === "error") throw message.error;
      }
      expect(seen[0]).toBe("taskCreated");
      expect(seen).toContain("taskStatus");
      expect(seen.at(-1)).toBe("result");
      expect(textOf(result)).toContain("# Research Report: tides");

      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({
        taskId,
        status: "completed",
        ttl: expect.any(Number),
        pollInterval: expect.any(Number),
      });
      const again = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(textOf(again)).toContain("# Research Report: tides");
      expect(again._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
      const { tasks } = await client.experimental.tasks.listTasks();
      expect(tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: "completed" });
    },
    60_000,
  );

  it.each(Object.keys(through) as (keyof typeof through)[])(
    "puts the server's question to the client on tasks/result and goes on with its answer (%s)",
    async (kind) => {
      const at = through[kind];
      const { client, asked } = await answeringClient(at);
      const { taskId, statuses, result } = await ambiguousTask(client, at, "tides");
      expect(statuses).toContain("input_required");
      expect(asked).toHaveLength(1);
      expect(asked[0]?.message).toContain("multiple interpretations");
      // Asked as the task's, under Switchboard's id for it.
      expect(asked[0]?._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
      expect(textOf(result)).toContain("**Clarification**: historical");
    },
    60_000,
  );

  it("reads a task's state from its whole log, however much it said (more than one read's worth of progress)", async () => {
    const at = through.gateway;
    const client = await sessionClient(at);
    const created = await client.request(
      {
        method: "tools/call",
        params: {
          name: "everything_trigger-long-running-operation",
          arguments: { duration: 1, steps: 700 },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(textOf(result)).toContain("Long running operation completed");
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: "completed" });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: "completed" });
  }, 60_000);

  it("asks nothing of a client that did not declare elicitation: the server goes on without", async () => {
    const client = await sessionClient(through.gateway);
    const { statuses, result } = await ambiguousTask(client, through.gateway, "tides");
    expect(statuses).not.toContain("input_required");
    expect(textOf(result)).toContain("elicitation unavailable");
  }, 60_000);

  it.each(Object.keys(through) as (keyof typeof through)[])(
    "cancels a running task, which then stays cancelled (%s)",
    async (kind) => {
      const at = through[kind];
      const client = await sessionClient(at);
      const task = await startTask(client, at, "cancel me");
      expect(task.status).toBe("working");
      const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
      expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
      let status = "";
      for (let turn = 0; turn < 50 && status !== "cancelled"; turn++) {
        status = (await client.experimental.tasks.getTask(task.taskId)).status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe("cancelled");
      const late = await refusal(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema));
      expect(late).toBeInstanceOf(McpError);
      expect((late as McpError).message).toContain("was cancelled");
      // An ended task cannot be cancelled again.
      expect(await refusal(client.experimental.tasks.cancelTask(task.taskId))).toBeInstanceOf(McpError);
    },
    60_000,
  );

  it("finds a task from a later session of the same key, and from no other key or organization", async () => {
    const at = through.gateway;
    const first = await sessionClient(at);
    const task = await startTask(first, at, "kept");
    const later = await sessionClient(at);
    expect((await later.experimental.tasks.getTask(task.taskId)).taskId).toBe(task.taskId);
    const result = await later.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toContain("# Research Report: kept");

    for (const bearer of [sameOrgKey, strangerKey]) {
      const other = await sessionClient(at, bearer);
      for (const attempt of [
        other.experimental.tasks.getTask(task.taskId),
        other.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
        other.experimental.tasks.cancelTask(task.taskId),
      ]) {
        const refused = await refusal(attempt);
        expect(refused).toBeInstanceOf(McpError);
        expect((refused as McpError).code).toBe(-32602);
        expect((refused as McpError).message).toContain(`No task ${task.taskId}`);
      }
      const { tasks } = await other.experimental.tasks.listTasks();
      expect(tasks.map((listed) => listed.taskId)).not.toContain(task.taskId);
    }
    // Nor on the other endpoint, for the same key.
    const passThrough = await sessionClient(through["pass-through"]);
    expect(await refusal(passThrough.experimental.tasks.getTask(task.taskId))).toBeInstanceOf(McpError);
  }, 60_000);

  it("still answers a plain call of the task-required tool at once, waiting for the task itself", async () => {
    const client = await sessionClient(through.gateway);
    const result = await client.callTool({ name: through.gateway.tool, arguments: { topic: "plain" } });
    expect(textOf(result)).toContain("# Research Report: plain");
    expect(result._meta?.[RELATED_TASK_META_KEY]).toBeUndefined();
  }, 60_000);
});

describe("a 2025-11-25 client's tasks without a session", () => {
  const post = async (body: unknown, version = "2025-11-25") => {
    const response = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": version,
      },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } }[] &
      ({ result?: Record<string, unknown>; error?: { code: number; message: string } } | undefined);
  };
  const call = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: through.gateway.tool, arguments: { topic: "alone" }, task: {} },
  });

  it("starts a task from a lone call, read with tasks/result, and refuses one inside a batch", async () => {
    const created = await post(call(1));
    const { taskId } = (created.result as { task: { taskId: string; status: string } }).task;
    const ended = await post({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } });
    expect(textOf(ended.result)).toContain("# Research Report: alone");
    // Batches are 2025-03-26's.
    const batched = await post([call(3), call(4)], "2025-03-26");
    expect([batched].flat().map((answer) => answer?.error?.code)).toEqual([-32600, -32600]);
  }, 60_000);
});

describeOnPostgres("a 2025-11-25 session client's task served by two instances in turn", () => {
  let other: DatabaseHandle;
  beforeAll(() => {
    other = openSecondInstance(handle.db);
  });
  afterAll(async () => {
    useDatabase(handle);
    await other?.close();
  });
  // Each request of the client goes to the other instance than the one before.
  let turn = 0;
  const alternating = (url: string | URL, init?: RequestInit) => {
    useDatabase([handle, other][turn++ % 2]);
    return gatewayFetch(url, init);
  };

  it("is started on one instance and polled, listed and read on the other", async () => {
    turn = 0;
    const client = await sessionClient(through.gateway, key, alternating);
    const statuses: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: through.gateway.tool, arguments: { topic: "across" } },
      CallToolResultSchema,
      { task: {} },
    )) {
      if (message.type === "taskStatus") statuses.push(message.task.status);
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(statuses.at(-1)).toBe("completed");
    expect(textOf(result)).toContain("# Research Report: across");
    expect(turn).toBeGreaterThan(3);
  }, 60_000);

  it("takes the answer to the task's question on one instance while the task runs on the other", async () => {
    turn = 0;
    const { client, asked } = await answeringClient(through.gateway, alternating);
    const { result } = await ambiguousTask(client, through.gateway, "across");
    expect(asked).toHaveLength(1);
    expect(textOf(result)).toContain("**Clarification**: historical");
    expect(turn).toBeGreaterThan(3);
  }, 60_000);
});
