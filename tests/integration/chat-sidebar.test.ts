import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  deleteConversationAction,
  pinConversationAction,
  renameConversationAction,
  searchConversationsAction,
} from "@/app/(app)/chat/actions";
import type { Conversation } from "@/db/schema";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import {
  createConversation,
  getConversation,
  listConversations,
  saveMessages,
} from "@/lib/chat/conversations";
import { useDatabase } from "./gateway-client";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The sidebar's actions, as the browser calls them. They read the signed-in user through next-auth and revalidate
// Next's cache, which need Next's runtime: stand in for those two. The rest (arguments, queries, refusals) is real.
const session = vi.hoisted(() => ({ ctx: null as unknown }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let teammate: UserContext;
let stranger: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner, stranger] = (await registerOwners(handle.db, "Sia", "Xen")) as [UserContext, UserContext];
  const { user } = await registerUser(handle.db, {
    name: "Tam",
    email: "tam@example.com",
    password: "password tam",
  });
  await joinByInvitation(handle.db, owner, { email: "tam@example.com", role: "member" });
  teammate = await resolveUserContext(handle.db, { userId: user.id, preferredOrgId: owner.orgId });
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

const as = (ctx: UserContext) => {
  session.ctx = ctx;
};

async function conversationOf(ctx: UserContext, messages: UIMessage[]): Promise<Conversation> {
  const agent = await ensureDefaultAgent(handle.db, ctx.orgId);
  const conversation = await createConversation(handle.db, ctx, agent.id);
  await saveMessages(handle.db, conversation, messages);
  return getConversation(handle.db, ctx, conversation.id);
}

const say = (id: string, role: "user" | "assistant", text: string): UIMessage => ({
  id,
  role,
  parts: [{ type: "text", text }],
});

const found = async (query: string) =>
  (await searchConversationsAction(query)).conversations?.map((c) => c.id);

describe("the sidebar's search", () => {
  it("finds a word that occurs only inside a message, in any case, for its owner alone", async () => {
    const ours = await conversationOf(owner, [
      say("m1", "user", "Routers in Frankfurt"),
      say("m2", "assistant", "There are three: alpha, bravo and the Zanzibar router."),
    ]);
    await conversationOf(owner, [say("m1", "user", "Something else")]);
    as(owner);
    expect(ours.title).toBe("Routers in Frankfurt");
    expect(await found("zanzibar")).toEqual([ours.id]);
    expect(await found("ROUTERS IN")).toEqual([ours.id]);
    // Neither a teammate in the same organization nor someone in another organization sees it.
    as(teammate);
    expect(await found("zanzibar")).toEqual([]);
    as(stranger);
    expect(await found("zanzibar")).toEqual([]);
  });

  it("reads only what was written: not tool calls' arguments, results or the JSON around the text", async () => {
    const withTool = await conversationOf(owner, [
      say("m1", "user", "Echo something"),
      {
        id: "m2",
        role: "assistant",
        parts: [
          {
            type: "dynamic-tool",
            toolName: "everything_echo",
            toolCallId: "c1",
            state: "output-available",
            input: { message: "quixotic" },
            output: { content: [{ type: "text", text: "Echo: quixotic" }] },
          },
        ],
      },
    ]);
    as(owner);
    expect(await found("quixotic")).toEqual([]);
    expect(await found("dynamic-tool")).toEqual([]);
    expect(await found("echo something")).toEqual([withTool.id]);
  });

  it("matches % and _ literally, and refuses a query that is not text", async () => {
    const percent = await conversationOf(owner, [say("m1", "user", "Uptime was 100% last week")]);
    as(owner);
    expect(await found("100%")).toEqual([percent.id]);
    expect(await found("up_ime")).toEqual([]);
    expect(await searchConversationsAction(42 as unknown as string)).toMatchObject({
      error: expect.any(String),
    });
    expect(await searchConversationsAction("x".repeat(201))).toMatchObject({ error: expect.any(String) });
  });
});

describe("rename, pin and delete from the sidebar", () => {
  it("renames the owner's conversation, and refuses anyone else's, which keeps its title", async () => {
    const conversation = await conversationOf(owner, [say("m1", "user", "Old title")]);
    as(teammate);
    expect((await renameConversationAction(conversation.id, "Taken")).error).toMatch(/not found/i);
    as(stranger);
    expect((await renameConversationAction(conversation.id, "Taken")).error).toMatch(/not found/i);
    expect((await getConversation(handle.db, owner, conversation.id)).title).toBe("Old title");
    as(owner);
    expect(await renameConversationAction(conversation.id, "  ")).toMatchObject({ error: "Enter a title." });
    expect(await renameConversationAction(conversation.id, "Capacity planning")).toEqual({});
    expect((await getConversation(handle.db, owner, conversation.id)).title).toBe("Capacity planning");
  });

  it("pins a conversation to the top of the owner's list and unpins it; nobody else can", async () => {
    const older = await conversationOf(owner, [say("m1", "user", "Pin me")]);
    const newer = await conversationOf(owner, [say("m1", "user", "Newest")]);
    const order = async () => (await listConversations(handle.db, owner)).map((c) => c.id);
    expect((await order()).indexOf(newer.id)).toBeLessThan((await order()).indexOf(older.id));

    as(stranger);
    expect((await pinConversationAction(older.id, true)).error).toMatch(/not found/i);
    as(teammate);
    expect((await pinConversationAction(older.id, true)).error).toMatch(/not found/i);
    expect((await getConversation(handle.db, owner, older.id)).pinnedAt).toBeNull();

    as(owner);
    expect(await pinConversationAction(older.id, true)).toEqual({});
    expect((await order())[0]).toBe(older.id);
    expect((await listConversations(handle.db, owner))[0]?.pinnedAt).toBeInstanceOf(Date);
    // A switch is a boolean, never a string that looks like one.
    expect((await pinConversationAction(older.id, "false" as unknown as boolean)).error).toBeDefined();
    expect((await order())[0]).toBe(older.id);
    expect(await pinConversationAction(older.id, false)).toEqual({});
    expect((await order())[0]).not.toBe(older.id);
  });

  it("deletes only the owner's conversation", async () => {
    const conversation = await conversationOf(owner, [say("m1", "user", "Delete me")]);
    as(stranger);
    expect((await deleteConversationAction(conversation.id)).error).toMatch(/not found/i);
    as(teammate);
    expect((await deleteConversationAction(conversation.id)).error).toMatch(/not found/i);
    expect((await getConversation(handle.db, owner, conversation.id)).id).toBe(conversation.id);
    as(owner);
    expect(await deleteConversationAction(conversation.id)).toEqual({});
    expect(await getConversation(handle.db, owner, conversation.id).catch(() => "gone")).toBe("gone");
    expect(await found("Delete me")).toEqual([]);
  });
});
