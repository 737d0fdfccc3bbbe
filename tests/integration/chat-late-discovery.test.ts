import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// A start budget far below the slow server's answer time, so the late path is what runs.
process.env.DISCOVERY_BUDGET_MS = "300";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let slow: RunningFixture;

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Lena")) as [UserContext];
  slow = await startFixture("slow-list", { args: ["--delay-ms", "1500"] });
  await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Slow",
    transport: "streamable-http",
    url: slow.url,
    timeoutMs: 10_000,
  });
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await slow?.stop();
  await handle?.close();
});

async function newConversation() {
  const agent = await ensureDefaultAgent(handle.db, owner.orgId);
  return createConversation(handle.db, owner, agent.id);
}

async function storedEntry(conversationId: string) {
  const [row] = await handle.db
    .select({ discovery: conversations.discovery })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row?.discovery?.integrations[0];
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
}

describe("conversation start with a server slower than the budget", () => {
  it("starts without it, then records its late answer so its tools join the next turn", async () => {
    const conversation = await newConversation();
    const first = await prepareConversation(handle.db, owner, conversation);
    expect(first.discovery.integrations).toEqual([
      expect.objectContaining({ name: "Slow", status: "pending" }),
    ]);
    expect(Object.keys(first.active.tools)).not.toContain("slow_echo");

    const settled = await eventually(
      () => storedEntry(conversation.id),
      (entry) => entry?.status === "connected",
    );
    expect(settled).toMatchObject({ status: "connected", late: true, toolCount: 1 });
    const next = await prepareConversation(
      handle.db,
      owner,
      await getConversation(handle.db, owner, conversation.id),
    );
    expect(Object.keys(next.active.tools)).toContain("slow_echo");
  });

  it("lets a slow server that answered before stand in with its last discovery", async () => {
    const conversation = await newConversation();
    const started = await prepareConversation(handle.db, owner, conversation);
    expect(started.discovery.integrations).toEqual([
      expect.objectContaining({ name: "Slow", status: "stale", toolCount: 1 }),
    ]);
    expect(Object.keys(started.active.tools)).toContain("slow_echo");
    await eventually(
      () => storedEntry(conversation.id),
      (entry) => entry?.status === "connected",
    );
  });
});
