import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";
import {
  addIntegrations,
  connectPassThrough,
  envelope,
  modernRequest,
  passThroughFetch,
  textOf,
  useDatabase,
} from "../gateway-client";
import { registerOwners } from "../org-users";
import { createTestDatabase } from "../test-db";

// The pass-through authenticates with API keys.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => undefined,
}));

const TASKS = "io.modelcontextprotocol/tasks";
const at = {
  url: "http://localhost:3000/api/mcp/integrations/fixture",
  fetch: passThroughFetch("fixture") as typeof fetch,
};
const takesTasks = { elicitation: {}, extensions: { [TASKS]: {} } };

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let key: string;
let server: RunningFixture;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  const [owner] = (await registerOwners(handle.db, "Tomas")) as [UserContext];
  key = (await createApiKey(handle.db, owner, { name: "tasks" })).key;
  // The conformance fixture: it speaks 2026-07-28 (which Switchboard's client picks) and runs the suite's task tools.
  server = await startFixture("conformance");
  await addIntegrations(handle.db, owner, { Fixture: server });
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await server?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const call = (name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>) =>
  modernRequest(key, "tools/call", { name, arguments: args, _meta: envelope(capabilities) }, at);

/** Reads the task until it is in one of these states (or ended). */
async function taskWhen(taskId: string, ...statuses: string[]) {
  for (let tries = 0; tries < 100; tries++) {
    const { body } = await modernRequest(key, "tasks/get", { taskId, _meta: envelope(takesTasks) }, at);
    const status = body.result?.status as string | undefined;
    if (!status || statuses.includes(status) || ["completed", "failed", "cancelled"].includes(status))
      return body.result as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Task ${taskId} never came to ${statuses.join(" or ")}.`);
}

describe("the pass-through of a 2026-07-28 server that runs tools as tasks", () => {
  it("lists the task support the server's listing says (which the SDK's 2026 codec drops), required as optional", async () => {
    const client = await connectPassThrough("fixture", key);
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    // Switchboard waits on a task-only tool for a client that calls it plainly.
    expect(support).toMatchObject({
      slow_compute: "optional",
      failing_job: "optional",
      multi_input: "optional",
    });
    expect(support.greet).toBeUndefined();
    await client.close();
  });

  it("gives a client that takes tasks Switchboard's task, whose question it answers with tasks/update", async () => {
    const created = (await call("confirm_delete", { filename: "notes.txt" }, takesTasks)).body.result;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    // Switchboard's own task id, not the fixture's (task-<n>).
    expect(created.taskId).not.toMatch(/^task-\d+$/);
    const waiting = await taskWhen(created.taskId, "input_required");
    expect(waiting).toMatchObject({
      status: "input_required",
      inputRequests: { confirm: { method: "elicitation/create", params: { message: "Delete notes.txt?" } } },
    });
    const ack = await modernRequest(
      key,
      "tasks/update",
      {
        taskId: created.taskId,
        inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
        _meta: envelope(takesTasks),
      },
      at,
    );
    expect(ack.body.result).toEqual(expect.objectContaining({ resultType: "complete" }));
    const done = await taskWhen(created.taskId);
    expect(done.status).toBe("completed");
    expect(textOf(done.result)).toBe("Deleted notes.txt.");
  });

  it("asks, inside its task, what the server asked before making its own (input_required, then a task)", async () => {
    const created = (await call("test_tool_with_task", {}, takesTasks)).body.result;
    expect(created.resultType).toBe("task");
    const waiting = await taskWhen(created.taskId, "input_required");
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["user_name"]);
    await modernRequest(
      key,
      "tasks/update",
      {
        taskId: created.taskId,
        inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
        _meta: envelope(takesTasks),
      },
      at,
    );
    const done = await taskWhen(created.taskId);
    expect(done.status).toBe("completed");
    expect(textOf(done.result)).toBe("Hello, Alice!");
  });

  it("runs a task-only tool for a client without the extension and answers with its result", async () => {
    const failing = (await call("failing_job", {}, {})).body;
    expect(failing.error).toBeUndefined();
    expect(failing.result).toMatchObject({ resultType: "complete", isError: true });
    expect(textOf(failing.result)).toBe("The job failed: no disk space left.");
    const computed = (await call("slow_compute", { seconds: 0 }, {})).body.result;
    expect(textOf(computed)).toBe("Computed in 0 s.");
  });
});
