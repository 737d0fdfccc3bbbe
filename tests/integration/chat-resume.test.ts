import { randomUUID } from "node:crypto";
import type { UIMessage } from "ai";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as stopRoute } from "@/app/api/chat/[id]/stop/route";
import { GET as streamRoute } from "@/app/api/chat/[id]/stream/route";
import type { DatabaseHandle } from "@/db/client";
import { conversations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { loadMessages } from "@/lib/chat/conversations";
import { runningTurn } from "@/lib/chat/turn-streams";
import { useDatabase } from "./gateway-client";
import { describeOnPostgres } from "./on-postgres";
import { registerOwners } from "./org-users";
import { newChat, postChatTurn, scriptAnswers, startChatModel, userText } from "./scripted-chat";
import { openSecondInstance } from "./second-instance";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// The chat's user is whoever the test signs in.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startChatModel();

let handle: DatabaseHandle;
let owner: UserContext;
let stranger: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner, stranger] = (await registerOwners(handle.db, "Rue", "Sid")) as [UserContext, UserContext];
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await model.stop();
  await handle?.close();
});

const WORDS = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
/** The model's next answer: thirty words, a tenth of a second apart. */
const slowAnswer = () => scriptAnswers(model.baseUrl, [{ text: WORDS, delayMs: 100 }]);

const newConversation = async () => (await newChat(handle.db, owner)).conversation;

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const as = (ctx: UserContext) => {
  signedIn.ctx = ctx;
};
function startTurn(conversationId: string, text: string) {
  as(owner);
  return postChatTurn({ id: conversationId, message: userText(`u-${text.replaceAll(" ", "-")}`, text) });
}
const reattach = (conversationId: string, ctx = owner) => {
  as(ctx);
  return streamRoute(
    new Request(`http://localhost/api/chat/${conversationId}/stream`),
    params(conversationId),
  );
};
const stop = (conversationId: string, ctx = owner) => {
  as(ctx);
  return stopRoute(
    new Request(`http://localhost/api/chat/${conversationId}/stop`, { method: "POST" }),
    params(conversationId),
  );
};

/** Reads an answer's event stream until `until` appears in it (or to its end), then leaves it. */
async function readUntil(response: Response, until?: string): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return seen;
    seen += decoder.decode(value, { stream: true });
    if (until && seen.includes(until)) {
      await reader.cancel();
      return seen;
    }
  }
}
const answerOf = (messages: UIMessage[]) =>
  messages
    .at(-1)
    ?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("");

describe("a turn that outlives its page", () => {
  it("runs to its end when the page leaves, and a page that comes back replays it from its start", async () => {
    const conversation = await newConversation();
    await slowAnswer();
    const first = await readUntil(await startTurn(conversation.id, "tell me"), "word2");
    expect(first).toContain("word2");
    // The question is kept at once, so a reloaded page shows it above the answer it re-attaches to.
    expect((await loadMessages(handle.db, conversation.id)).map((message) => message.role)).toEqual(["user"]);

    const again = await reattach(conversation.id);
    expect(again.status).toBe(200);
    expect(again.headers.get("content-type")).toContain("text/event-stream");
    const replayed = await readUntil(again);
    // From the start (the message's own start and its first words) to the end.
    expect(replayed).toContain('"type":"start"');
    expect(replayed).toContain("word0");
    expect(replayed).toContain("word29");
    expect(replayed.trimEnd().endsWith("data: [DONE]")).toBe(true);

    await vi.waitFor(async () =>
      expect(answerOf(await loadMessages(handle.db, conversation.id))).toBe(WORDS),
    );
    // Nothing runs any more: nothing to re-attach to.
    expect((await reattach(conversation.id)).status).toBe(204);
  }, 30_000);

  it("stops when asked, wherever the page is, and keeps what came", async () => {
    const conversation = await newConversation();
    await slowAnswer();
    await readUntil(await startTurn(conversation.id, "go on"), "word3");
    // Another organization's user cannot stop it (nor see that it runs).
    expect((await stop(conversation.id, stranger)).status).toBe(404);
    expect((await reattach(conversation.id, stranger)).status).toBe(404);
    const stopped = await stop(conversation.id);
    expect(await stopped.json()).toEqual({ stopped: true });
    await vi.waitFor(async () => expect((await reattach(conversation.id)).status).toBe(204), {
      timeout: 10_000,
    });
    const stored = await loadMessages(handle.db, conversation.id);
    const answer = answerOf(stored) ?? "";
    expect(answer).toContain("word3");
    expect(answer).not.toContain("word29");
    // Stopping is no failure: the answer carries no error.
    expect(stored.at(-1)?.parts.map((part) => part.type)).not.toContain("data-turn-error");
    expect(await (await stop(conversation.id)).json()).toEqual({ stopped: false });
  }, 30_000);
});

describe("a turn whose instance stopped", () => {
  it("is over once it has not said it runs for a while: nothing to re-attach to", async () => {
    const conversation = await newConversation();
    await handle.db
      .update(conversations)
      .set({ activeTurnId: randomUUID(), activeTurnSeenAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(conversations.id, conversation.id));
    expect((await reattach(conversation.id)).status).toBe(204);
    await handle.db
      .update(conversations)
      .set({ activeTurnSeenAt: new Date() })
      .where(eq(conversations.id, conversation.id));
    // One heard of just now still runs, as far as anyone can tell.
    expect(await runningTurn(handle.db, conversation.id)).toBeDefined();
  });
});

describeOnPostgres("a turn re-attached to and stopped through another instance", () => {
  let other: DatabaseHandle;
  beforeAll(() => {
    other = openSecondInstance(handle.db);
  });
  afterAll(async () => {
    useDatabase(handle);
    await other?.close();
  });

  it("replays on one instance what runs on the other, and stops it from there", async () => {
    const conversation = await newConversation();
    await slowAnswer();
    useDatabase(handle);
    await readUntil(await startTurn(conversation.id, "across"), "word1");
    useDatabase(other);
    const replay = readUntil(await reattach(conversation.id), "word6");
    expect(await replay).toContain("word0");
    const stopped = await stop(conversation.id);
    expect(await stopped.json()).toEqual({ stopped: true });
    useDatabase(handle);
    await vi.waitFor(
      async () => {
        useDatabase(other);
        expect((await reattach(conversation.id)).status).toBe(204);
      },
      { timeout: 10_000 },
    );
    const answer = answerOf(await loadMessages(handle.db, conversation.id)) ?? "";
    expect(answer).toContain("word6");
    expect(answer).not.toContain("word29");
  }, 30_000);
});
