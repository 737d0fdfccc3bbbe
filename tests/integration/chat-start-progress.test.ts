import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as discoveryRoute } from "@/app/api/chat/[id]/discovery/route";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// What is checked is the stream of each integration settling, not the budget: a busy machine may take seconds to
// start the Everything server.
process.env.DISCOVERY_BUDGET_MS = "30000";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let everythingId: string;
let brokenId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Pru")) as [UserContext];
  // The real Everything server, and one whose host does not exist.
  everythingId = (
    await createIntegration(handle.db, session.ctx, { source: "catalog", presetKey: "everything" })
  ).id;
  brokenId = (
    await createIntegration(handle.db, session.ctx, {
      source: "custom",
      name: "Broken",
      transport: "streamable-http",
      url: "http://no-such-host.invalid/mcp",
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

const start = async (conversationId: string, accept: string) =>
  discoveryRoute(
    new Request(`http://localhost:3000/api/chat/${conversationId}/discovery`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify({}),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );

it("streams conversation start: the integrations asked, then each one as it answers or fails", async () => {
  const agent = await ensureDefaultAgent(handle.db, session.ctx.orgId);
  const conversation = await createConversation(handle.db, session.ctx, agent.id);
  const response = await start(conversation.id, "application/x-ndjson");
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  const lines = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]).toEqual({
    type: "started",
    integrations: expect.arrayContaining([
      { integrationId: everythingId, name: "Everything" },
      { integrationId: brokenId, name: "Broken" },
    ]),
  });
  const settled = lines.filter((line) => line.type === "settled");
  expect(settled).toEqual(
    expect.arrayContaining([
      {
        type: "settled",
        integrationId: everythingId,
        status: "connected",
        toolCount: expect.any(Number),
        ms: expect.any(Number),
      },
      {
        type: "settled",
        integrationId: brokenId,
        status: "failed",
        message: expect.stringMatching(/no-such-host\.invalid/),
        ms: expect.any(Number),
      },
    ]),
  );
  expect(settled.find((line) => line.integrationId === everythingId)?.toolCount).toBeGreaterThan(0);
  expect(lines.at(-1)).toEqual({ type: "done" });
  // The outcome is kept with the conversation, as without the stream.
  expect(
    (await getConversation(handle.db, session.ctx, conversation.id)).discovery?.integrations,
  ).toHaveLength(2);
});

it("answers plain JSON to a client that does not ask for the stream", async () => {
  const agent = await ensureDefaultAgent(handle.db, session.ctx.orgId);
  const conversation = await createConversation(handle.db, session.ctx, agent.id);
  const response = await start(conversation.id, "application/json");
  expect(await response.json()).toEqual({ ok: true });
  expect((await getConversation(handle.db, session.ctx, conversation.id)).discovery).not.toBeNull();
});
