import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Conversation } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { ensureDefaultAgent, getAgent, listAgents } from "@/lib/chat/agents";
import { setToolToggles } from "@/lib/chat/conversation-settings";
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  loadMessages,
  saveMessages,
  startConversation,
} from "@/lib/chat/conversations";
import type { AppError } from "@/lib/errors";
import { joinByInvitation } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let teammate: UserContext;
let b: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  const ua = await registerUser(handle.db, { name: "A", email: "a@example.com", password: "password a" });
  const ut = await registerUser(handle.db, { name: "T", email: "t@example.com", password: "password t" });
  const ub = await registerUser(handle.db, { name: "B", email: "b@example.com", password: "password b" });
  a = await resolveUserContext(handle.db, { userId: ua.user.id });
  b = await resolveUserContext(handle.db, { userId: ub.user.id });
  await joinByInvitation(handle.db, a, { email: "t@example.com", role: "member" });
  teammate = await resolveUserContext(handle.db, { userId: ut.user.id, preferredOrgId: a.orgId });
});
afterAll(() => handle?.close());

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error as AppError).status,
  );

describe("conversations and agents", () => {
  it("keeps one default agent per organization", async () => {
    const first = await ensureDefaultAgent(handle.db, a.orgId);
    expect((await ensureDefaultAgent(handle.db, a.orgId)).id).toBe(first.id);
    expect((await listAgents(handle.db, a)).map((agent) => agent.id)).toEqual([first.id]);
    expect(await status(getAgent(handle.db, b, first.id))).toBe(404);
  });

  it("stores messages, titles the conversation from its first words, and reloads it as it was", async () => {
    const agent = await ensureDefaultAgent(handle.db, a.orgId);
    const conversation = await createConversation(handle.db, a, agent.id);
    const messages: UIMessage[] = [
      { id: "m1", role: "user", parts: [{ type: "text", text: "Which routers are in Frankfurt?" }] },
      { id: "m2", role: "assistant", parts: [{ type: "text", text: "router-1." }] },
    ];
    await saveMessages(handle.db, conversation, messages);
    expect(await loadMessages(handle.db, conversation.id)).toEqual(messages);
    expect((await getConversation(handle.db, a, conversation.id)).title).toBe(
      "Which routers are in Frankfurt?",
    );
  });

  it("lets no one else open, list or delete a user's conversation", async () => {
    const agent = await ensureDefaultAgent(handle.db, a.orgId);
    const conversation = await createConversation(handle.db, a, agent.id);
    expect(await status(getConversation(handle.db, b, conversation.id))).toBe(404);
    expect(await status(getConversation(handle.db, teammate, conversation.id))).toBe(404);
    expect(await status(deleteConversation(handle.db, b, conversation.id))).toBe(404);
    await saveMessages(handle.db, conversation, [
      { id: "m1", role: "user", parts: [{ type: "text", text: "Private question" }] },
    ]);
    expect((await listConversations(handle.db, b)).length).toBe(0);
    expect((await listConversations(handle.db, a)).map((c) => c.id)).toContain(conversation.id);
    await deleteConversation(handle.db, a, conversation.id);
    expect(await status(getConversation(handle.db, a, conversation.id))).toBe(404);
  });
});

describe("the conversation list", () => {
  const say = (conversation: Conversation, text: string) =>
    saveMessages(handle.db, conversation, [{ id: "m1", role: "user", parts: [{ type: "text", text }] }]);

  it("lists only conversations that hold a message, with their agent's name", async () => {
    const agent = await ensureDefaultAgent(handle.db, b.orgId);
    const empty = await createConversation(handle.db, b, agent.id);
    const used = await createConversation(handle.db, b, agent.id);
    await say(used, "How many routers are there?");
    const listed = await listConversations(handle.db, b);
    expect(listed.map((c) => c.id)).toEqual([used.id]);
    expect(listed[0]).toMatchObject({ title: "How many routers are there?", agentName: agent.name });
    expect(listed.map((c) => c.id)).not.toContain(empty.id);
  });

  it("searches titles in any case, and matches % and _ literally", async () => {
    const agent = await ensureDefaultAgent(handle.db, b.orgId);
    const first = await createConversation(handle.db, b, agent.id);
    await say(first, "Uptime of 100% in Frankfurt");
    const second = await createConversation(handle.db, b, agent.id);
    await say(second, "Uptime of 1000 servers");
    const titles = async (search: string) =>
      (await listConversations(handle.db, b, { search })).map((c) => c.title).sort();
    expect(await titles("FRANKFURT")).toEqual(["Uptime of 100% in Frankfurt"]);
    expect(await titles("100%")).toEqual(["Uptime of 100% in Frankfurt"]);
    expect(await titles("uptime")).toEqual(["Uptime of 1000 servers", "Uptime of 100% in Frankfurt"].sort());
    expect(await titles("of_1")).toEqual([]);
    expect(await titles("  ")).toHaveLength((await listConversations(handle.db, b)).length);
  });

  it("starts a new conversation in the empty one the user already has with that agent, set back to new", async () => {
    const agent = await ensureDefaultAgent(handle.db, a.orgId);
    const first = await startConversation(handle.db, a, agent.id);
    await setToolToggles(handle.db, a, first.id, { disabledIntegrationIds: [], disabledTools: ["x_y"] });
    const again = await startConversation(handle.db, a, agent.id);
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ disabledTools: [], discovery: null, title: "New conversation" });
    // Once it holds a message, the next start is a conversation of its own.
    await say(again, "Hello");
    const next = await startConversation(handle.db, a, agent.id);
    expect(next.id).not.toBe(first.id);
    // Someone else's empty conversation is never reused.
    expect((await startConversation(handle.db, teammate, agent.id)).id).not.toBe(next.id);
  });
});
