import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { ensureDefaultAgent, getAgent, listAgents } from "@/lib/chat/agents";
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  loadMessages,
  saveMessages,
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
    expect((await listConversations(handle.db, b)).length).toBe(0);
    expect((await listConversations(handle.db, a)).map((c) => c.id)).toContain(conversation.id);
    await deleteConversation(handle.db, a, conversation.id);
    expect(await status(getConversation(handle.db, a, conversation.id))).toBe(404);
  });
});
