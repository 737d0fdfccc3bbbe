import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as runToolRoute } from "@/app/api/integrations/[id]/run/route";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let integrationId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Cy")) as [UserContext];
  // The real Everything server, whose long-running operation takes as long as it is asked to.
  integrationId = (
    await createIntegration(handle.db, session.ctx, { source: "catalog", presetKey: "everything" })
  ).id;
  expect((await testIntegration(handle.db, session.ctx, integrationId)).ok).toBe(true);
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

const run = (args: Record<string, unknown>, signal?: AbortSignal, accept = "application/json") =>
  runToolRoute(
    new Request(`http://localhost:3000/api/integrations/${integrationId}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify({ toolName: "trigger-long-running-operation", args }),
      signal,
    }),
    { params: Promise.resolve({ id: integrationId }) },
  );

it("runs a tool of the integration and answers its result", async () => {
  const response = await run({ duration: 0.2, steps: 2 });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ isError: false });
});

it("streams the server's progress reports, then the result, when asked for NDJSON", async () => {
  const response = await run({ duration: 0.4, steps: 4 }, undefined, "application/x-ndjson");
  expect(response.headers.get("content-type")).toBe("application/x-ndjson");
  const lines = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  // The last report reaches the SDK's client with the result over stdio, which it handles first.
  expect(lines.slice(0, 3)).toEqual([1, 2, 3].map((progress) => ({ type: "progress", progress, total: 4 })));
  expect(lines.length).toBeLessThanOrEqual(5);
  expect(lines.at(-1)).toMatchObject({ type: "result", result: { isError: false } });
});

it("streams a refusal with the status and body a plain answer would have had", async () => {
  const response = await runToolRoute(
    new Request(`http://localhost:3000/api/integrations/${integrationId}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/x-ndjson" },
      body: JSON.stringify({ toolName: "no-such-tool", args: {} }),
    }),
    { params: Promise.resolve({ id: integrationId }) },
  );
  const lines = (await response.text()).trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] as string)).toEqual({
    type: "refusal",
    status: 404,
    body: { error: 'The tool "no-such-tool" of Everything was not found.', code: "not_found:resource" },
  });
});

it("ends the call on the MCP server when the browser cancels, long before the tool would have finished", async () => {
  const controller = new AbortController();
  // Two minutes, far past this test's own time limit: only a cancelled call lets the test finish.
  const pending = run({ duration: 120, steps: 2 }, controller.signal);
  setTimeout(() => controller.abort(), 300);
  const response = await pending;
  expect(await response.json()).toMatchObject({
    isError: true,
    errorMessage: "The call was cancelled before the server answered.",
  });
  // The pooled session is free for the next call at once.
  expect((await run({ duration: 0.1, steps: 1 })).status).toBe(200);
}, 20_000);
