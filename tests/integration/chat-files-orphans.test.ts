import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as uploadRoute } from "@/app/api/chat/[id]/files/route";
import { chatFiles } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { storeChatFile } from "@/lib/chat/chat-files";
import { deleteConversation, getConversation, saveMessages } from "@/lib/chat/conversations";
import { sweepOrphanedChatFiles } from "@/lib/chat/orphaned-files";
import { tinyPng } from "../fixtures/files/sample-files";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { newChat } from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const HOUR_MS = 60 * 60_000;
let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let other: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner, other] = (await registerOwners(handle.db, "Ola", "Odo")) as [UserContext, UserContext];
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

const newConversation = async (ctx: UserContext) => (await newChat(handle.db, ctx)).conversation.id;

/** A file stored as if uploaded some hours ago (no sweep runs on this path). */
async function oldFile(ctx: UserContext, conversationId: string, hoursAgo: number, name = "dot.png") {
  const [row] = await handle.db
    .insert(chatFiles)
    .values({
      organizationId: ctx.orgId,
      userId: ctx.userId,
      conversationId,
      name,
      mediaType: "image/png",
      size: tinyPng.length,
      content: tinyPng,
      createdAt: new Date(Date.now() - hoursAgo * HOUR_MS),
    })
    .returning({ id: chatFiles.id });
  if (!row) throw new Error("not stored");
  return row.id;
}

/** Stores a user's message attaching these files, the way a turn stores it. */
async function send(ctx: UserContext, conversationId: string, fileIds: string[]) {
  const conversation = await getConversation(handle.db, ctx, conversationId);
  const stored = await saveMessages(handle.db, conversation, [
    {
      id: crypto.randomUUID(),
      role: "user",
      parts: [
        { type: "text", text: "See these." },
        ...fileIds.map((fileId) => ({
          type: "data-file" as const,
          data: { fileId, name: "dot.png", mediaType: "image/png", size: tinyPng.length },
        })),
      ],
    },
  ]);
  expect(stored).toBe(true);
}

const remaining = async (ids: string[]) =>
  new Set(
    (await handle.db.select({ id: chatFiles.id }).from(chatFiles).where(inArray(chatFiles.id, ids))).map(
      (row) => row.id,
    ),
  );

describe("files uploaded but never sent", () => {
  it("are swept when a later upload comes, once the grace period (24 h by default) is over", async () => {
    const id = await newConversation(owner);
    const stale = await oldFile(owner, id, 25);
    const fresh = await oldFile(owner, id, 23);
    signedIn.ctx = owner;
    const response = await uploadRoute(
      new Request(`http://localhost/api/chat/${id}/files?name=dot.png`, {
        method: "POST",
        body: new Uint8Array(tinyPng),
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(response.status).toBe(201);
    const uploaded = ((await response.json()) as { fileId: string }).fileId;
    expect(await remaining([stale, fresh, uploaded])).toEqual(new Set([fresh, uploaded]));
  });

  it("are deleted after the grace period; files a message of their own conversation attaches are kept", async () => {
    const mine = await newConversation(owner);
    const elsewhere = await newConversation(owner);
    const theirs = await newConversation(other);
    const sent = await oldFile(owner, mine, 48, "sent.png");
    const unsent = await oldFile(owner, mine, 48, "unsent.png");
    const recent = await oldFile(owner, mine, 1, "recent.png");
    // Named by a message of another conversation only: that does not keep it.
    const namedElsewhere = await oldFile(owner, mine, 48, "named-elsewhere.png");
    const theirsSent = await oldFile(other, theirs, 48);
    const theirsUnsent = await oldFile(other, theirs, 48);
    await send(owner, mine, [sent]);
    await send(owner, elsewhere, [namedElsewhere]);
    await send(other, theirs, [theirsSent]);
    const all = [sent, unsent, recent, namedElsewhere, theirsSent, theirsUnsent];
    expect(await sweepOrphanedChatFiles(handle.db)).toBe(3);
    expect(await remaining(all)).toEqual(new Set([sent, recent, theirsSent]));
    // The grace period is the setting's: with 30 minutes, the hour-old unsent file goes too.
    await sweepOrphanedChatFiles(handle.db, { graceMs: 30 * 60_000 });
    expect(await remaining(all)).toEqual(new Set([sent, theirsSent]));
  });

  it("are kept while an older version of an edited message still attaches them", async () => {
    const id = await newConversation(owner);
    const first = await oldFile(owner, id, 48, "first.png");
    await send(owner, id, [first]);
    // An edit is a sibling version of the question; the first version, with its file, stays stored.
    const conversation = await getConversation(handle.db, owner, id);
    await saveMessages(handle.db, conversation, [
      { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: "Never mind the image." }] },
    ]);
    await sweepOrphanedChatFiles(handle.db);
    expect(await remaining([first])).toEqual(new Set([first]));
  });

  it("go with their conversation when it is deleted, sent or not", async () => {
    const id = await newConversation(owner);
    const sent = (await storeChatFile(handle.db, owner, id, { name: "a.png", bytes: tinyPng })).fileId;
    const unsent = (await storeChatFile(handle.db, owner, id, { name: "b.png", bytes: tinyPng })).fileId;
    await send(owner, id, [sent]);
    await deleteConversation(handle.db, owner, id);
    expect(await remaining([sent, unsent])).toEqual(new Set());
    expect(
      await handle.db.select({ id: chatFiles.id }).from(chatFiles).where(eq(chatFiles.conversationId, id)),
    ).toEqual([]);
  });
});
