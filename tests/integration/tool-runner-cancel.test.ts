import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as runToolRoute } from "@/app/api/integrations/[id]/run/route";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration, testIntegration } from "@/lib/mcp/integrations-service";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireApiContext: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let integrationId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Cy")) as [UserContext];
  // The real Everything server, whose long-running operation takes as long as it is asked to.
  integrationId = (
    await createIntegration(handle.db, session.ctx, { source: "catalog", catalogKey: "everything" })
  ).id;
  expect((await testIntegration(handle.db, session.ctx, integrationId)).ok).toBe(true);
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

const run = (args: Record<string, unknown>, signal?: AbortSignal) =>
  runToolRoute(
    new Request(`http://localhost:3000/api/integrations/${integrationId}/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
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
