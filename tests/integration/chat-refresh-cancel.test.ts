import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as discoveryRoute } from "@/app/api/chat/[id]/discovery/route";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let slow: RunningFixture;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Rae")) as [UserContext];
  // Slower to list than the test waits, quicker than conversation start's budget.
  slow = await startFixture("slow-list", { args: ["--delay-ms", "2000"] });
  await createIntegration(handle.db, session.ctx, {
    source: "custom",
    name: "Slow",
    transport: "streamable-http",
    url: slow.url,
  });
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await slow?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const discover = (conversationId: string, refresh: boolean, signal?: AbortSignal) =>
  discoveryRoute(
    new Request(`http://localhost:3000/api/chat/${conversationId}/discovery`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/x-ndjson" },
      body: JSON.stringify({ refresh }),
      signal,
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );

it("a cancelled refresh keeps the conversation's discovery; one left to finish replaces it", async () => {
  const agent = await ensureDefaultAgent(handle.db, session.ctx.orgId);
  const conversation = await createConversation(handle.db, session.ctx, agent.id);
  await (await discover(conversation.id, false)).text();
  const first = (await getConversation(handle.db, session.ctx, conversation.id)).discovery;
  expect(first?.integrations).toMatchObject([{ name: "Slow", status: "connected" }]);

  const controller = new AbortController();
  const response = await discover(conversation.id, true, controller.signal);
  const reading = response.text().catch(() => "cancelled");
  setTimeout(() => controller.abort(), 300);
  await reading;
  // Past the moment the refresh would have finished and saved.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect((await getConversation(handle.db, session.ctx, conversation.id)).discovery).toEqual(first);

  await (await discover(conversation.id, true)).text();
  const refreshed = (await getConversation(handle.db, session.ctx, conversation.id)).discovery;
  expect(refreshed?.discoveredAt).not.toEqual(first?.discoveredAt);
}, 30_000);
