import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { openMcpSession } from "@/lib/mcp/client/connect";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";
import {
  addIntegrations,
  connectGateway,
  GATEWAY_URL,
  gatewayFetch,
  textOf,
  useDatabase,
} from "../gateway-client";
import { registerOwners } from "../org-users";
import { restInvoke } from "../rest-client";
import { connectRevision, type Revision } from "../revision-clients";
import { createTestDatabase } from "../test-db";

// REST and the gateway authenticate with API keys.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => undefined,
}));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let key: string;
let owner: UserContext;
let server: RunningFixture;

interface Stats {
  refused: number;
  created: string[];
  gets: number;
  updates: Record<string, unknown>[];
  cancelled: string[];
}
const stats = async () => (await (await fetch(`${server.baseUrl}/stats`)).json()) as Stats;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Tasha")) as [UserContext];
  key = (await createApiKey(handle.db, owner, { name: "tasks" })).key;
  // A 2026-07-28 server whose task tools run only as tasks (the tasks extension); its tools show as tasks_*.
  server = await startFixture("tasks-modern");
  await addIntegrations(handle.db, owner, { Tasks: server });
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await server?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("a task-only tool of a 2026-07-28 server", () => {
  it("is called over REST, which waits for the task's result", async () => {
    const before = await stats();
    const invoked = await restInvoke(key, "tasks_slow_compute", { seconds: 1 });
    expect(invoked).toEqual({ status: 200, body: { content: [{ type: "text", text: "Computed in 1 s." }] } });
    const after = await stats();
    // Run as a task on the server, read with tasks/get until it ended.
    expect(after.created.length).toBe(before.created.length + 1);
    expect(after.gets).toBeGreaterThan(before.gets);
    // A plain tool of the same server is still a plain call.
    expect(await restInvoke(key, "tasks_greet", { name: "Ada" })).toMatchObject({
      status: 200,
      body: { content: [{ type: "text", text: "Hello, Ada!" }] },
    });
    expect((await stats()).created.length).toBe(after.created.length);
  });

  it("is called as a task at once on a connection that read the server's listing", async () => {
    const session = await openMcpSession({
      integrationId: "listing",
      orgId: owner.orgId,
      timeoutMs: 5000,
      transport: "streamable-http",
      url: server.url,
      headers: {},
      allowPrivateNetwork: true,
    });
    try {
      expect(session.era).toBe("modern");
      const { tools } = await session.client.listTools();
      // Kept from the server's own answer, which the v2 client's codec strips of `execution`.
      expect(tools.find((tool) => tool.name === "protocol_error_job")?.execution).toEqual({
        taskSupport: "required",
      });
      expect(tools.find((tool) => tool.name === "greet")?.execution).toBeUndefined();
      const before = await stats();
      await expect(session.client.callTool({ name: "protocol_error_job" })).rejects.toThrow(
        "The job crashed.",
      );
      const after = await stats();
      expect(after.refused).toBe(before.refused);
      expect(after.created.length).toBe(before.created.length + 1);
    } finally {
      await session.close();
    }
  });

  it("is learnt to run only as a task from a refusal, when the server's listing does not say so", async () => {
    const unlisted = await startFixture("tasks-modern-unlisted");
    try {
      await addIntegrations(handle.db, owner, { Quiet: unlisted });
      const quietStats = async () => (await (await fetch(`${unlisted.baseUrl}/stats`)).json()) as Stats;
      const invoked = await restInvoke(key, "quiet_slow_compute", { seconds: 0 });
      expect(invoked).toEqual({
        status: 200,
        body: { content: [{ type: "text", text: "Computed in 0 s." }] },
      });
      // Refused once as a plain call, then run as a task; later calls on the connection go as tasks at once.
      expect(await quietStats()).toMatchObject({ refused: 1, created: ["task-1"] });
      await restInvoke(key, "quiet_slow_compute", { seconds: 0 });
      expect(await quietStats()).toMatchObject({ refused: 1, created: ["task-1", "task-2"] });
    } finally {
      await unlisted.stop();
    }
  });

  it("returns a task that completed with isError as the call's error result, and a failed task as its error", async () => {
    const failing = await restInvoke(key, "tasks_failing_job");
    expect(failing).toEqual({
      status: 500,
      body: {
        error: "Tool execution failed",
        tool_name: "tasks_failing_job",
        details: "The job failed: no disk space left.",
      },
    });
    const crashed = await restInvoke(key, "tasks_protocol_error_job");
    expect(crashed.status).toBe(500);
    expect(crashed.body.upstream_error).toMatchObject({ code: -32603, message: "The job crashed." });
  });

  it("refuses a question the REST caller cannot answer, and cancels the task on the server", async () => {
    const refused = await restInvoke(key, "tasks_confirm_delete", { path: "notes.txt" });
    expect(refused.status).toBe(500);
    expect(JSON.stringify(refused.body)).toContain("cannot take elicitation/create requests");
    const { created, cancelled } = await stats();
    expect(cancelled).toContain(created.at(-1));
  });

  it.each<Revision>(["2025-11-25", "2026-07-28"])(
    "is called through the gateway by a %s client, which answers the task's question and sees its progress",
    async (revision) => {
      const asked: string[] = [];
      const client = await connectRevision(revision, GATEWAY_URL, gatewayFetch, key, {
        elicit: (message) => {
          asked.push(message);
          return { confirm: true };
        },
      });
      const deleted = await client.callTool("tasks_confirm_delete", { path: "notes.txt" });
      expect(textOf(deleted)).toBe("Deleted notes.txt.");
      expect(asked).toEqual(["Delete notes.txt?"]);
      // The answer reached the server with tasks/update, under the server's name for the question.
      expect((await stats()).updates.at(-1)).toEqual({
        confirm_delete: { action: "accept", content: { confirm: true } },
      });
      const progress: { message?: string }[] = [];
      const computed = await client.callTool("tasks_slow_compute", { seconds: 1 }, (step) =>
        progress.push(step),
      );
      expect(textOf(computed)).toBe("Computed in 1 s.");
      if (revision === "2025-11-25")
        expect(progress.map((step) => step.message)).toContain("Computing for 1 s");
      await client.close();
    },
  );

  it("times out at the integration's timeout when the task does not move on, and is cancelled on the server", async () => {
    const hasty = await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Hasty",
      transport: "streamable-http",
      url: server.url,
      timeoutMs: 1500,
    });
    expect((await testIntegration(handle.db, owner, hasty.id)).ok).toBe(true);
    const started = Date.now();
    const timedOut = await restInvoke(key, "hasty_slow_compute", { seconds: 10 });
    // As a plain call that does not answer in time: the server is reported as not answering.
    expect(timedOut.status).toBe(503);
    expect(timedOut.body.error).toMatch(/did not answer within 2 s/);
    expect(Date.now() - started).toBeLessThan(5000);
    const { created, cancelled } = await stats();
    expect(cancelled).toContain(created.at(-1));
  });

  it("is cancelled on the server when the gateway's client cancels the call", async () => {
    const client = await connectGateway(key);
    const before = await stats();
    const cancel = new AbortController();
    const call = client.callTool({ name: "tasks_slow_compute", arguments: { seconds: 30 } }, undefined, {
      signal: cancel.signal,
    });
    let started = before;
    for (let tries = 0; tries < 50 && started.created.length === before.created.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      started = await stats();
    }
    const taskId = started.created.at(-1);
    expect(started.created.length).toBe(before.created.length + 1);
    cancel.abort("The user stopped it.");
    await expect(call).rejects.toThrow();
    let cancelled: string[] = [];
    for (let tries = 0; tries < 50 && !cancelled.includes(taskId as string); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      cancelled = (await stats()).cancelled;
    }
    expect(cancelled).toContain(taskId);
    await client.close();
  });
});

describe("a task-only tool of a 2026-07-28 server run as a local process (stdio)", () => {
  it("is called as a task over REST and the gateway, and its errors come back as over HTTP", async () => {
    await createIntegration(
      handle.db,
      owner,
      {
        source: "custom",
        name: "Local tasks",
        transport: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", path.resolve("tests/fixtures/mcp/stdio-tasks.ts")],
      },
      // As an operator adds it (the CLI): a stdio server runs a program on this host.
      { operator: true },
    );
    expect(await restInvoke(key, "local_tasks_slow_compute", { seconds: 0.3 })).toEqual({
      status: 200,
      body: { content: [{ type: "text", text: "Computed in 0.3 s." }] },
    });
    expect(await restInvoke(key, "local_tasks_failing_job", {})).toMatchObject({
      status: 500,
      body: { details: "The job failed: no disk space left." },
    });
    const crashed = await restInvoke(key, "local_tasks_protocol_error_job");
    expect(crashed.body.upstream_error).toMatchObject({ code: -32603, message: "The job crashed." });
    const client = await connectGateway(key);
    try {
      const called = await client.callTool({ name: "local_tasks_slow_compute", arguments: { seconds: 0.2 } });
      expect(textOf(called)).toBe("Computed in 0.2 s.");
    } finally {
      await client.close();
    }
  });
});
