import type { UIMessage } from "ai";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/chat/[id]/export/route";
import { POST as versionsRoute } from "@/app/api/chat/[id]/versions/route";
import { chatMessages } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { chatTurn } from "@/lib/chat/chat-turn";
import { SHOWN_BRANCH_NOTE } from "@/lib/chat/conversation-export";
import { appendMessages, getConversation, loadBranches, loadMessages } from "@/lib/chat/conversations";
import { useDatabase } from "./gateway-client";
import { registerOwnerMemberAndOther } from "./org-users";
import {
  modelRequests,
  newChat,
  postChatTurn,
  userText as said,
  scriptAnswers,
  startChatModel,
} from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// The chat's user is whoever the test signs in.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startChatModel();

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let member: UserContext;
let other: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  ({ owner, member, other } = await registerOwnerMemberAndOther(handle.db));
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await model.stop();
  await handle?.close();
});

const script = (...texts: string[]) =>
  scriptAnswers(
    model.baseUrl,
    texts.map((text) => ({ text })),
  );
/** What the model was sent in each request since the last script, as JSON text. */
const sentToModel = async () =>
  (await modelRequests<{ messages: unknown }>(model.baseUrl)).map((request) =>
    JSON.stringify(request.messages),
  );

const newConversation = async (ctx: UserContext) => (await newChat(handle.db, ctx)).conversation;

function jsonPost(ctx: UserContext, url: string, body: unknown) {
  signedIn.ctx = ctx;
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
const turnRequest = (ctx: UserContext, body: Record<string, unknown>) => {
  signedIn.ctx = ctx;
  return postChatTurn(body);
};
const showRequest = (ctx: UserContext, id: string, body: unknown) =>
  versionsRoute(jsonPost(ctx, `http://localhost/api/chat/${id}/versions`, body), {
    params: Promise.resolve({ id }),
  });

const texts = (messages: UIMessage[]) =>
  messages.map((message) =>
    message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(""),
  );

/** A turn answered with `answer`, read to its end (the turn is stored by then). */
async function turn(ctx: UserContext, body: Record<string, unknown>, answer: string) {
  await script(answer);
  const response = await turnRequest(ctx, body);
  expect(response.status).toBe(200);
  await response.text();
}

async function refusal(response: Response) {
  expect(response.status).toBe(400);
  return ((await response.json()) as { error: string }).error;
}

const storedRows = async (conversationId: string) =>
  (await handle.db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId))).length;

/** A conversation of four questions and their answers. */
async function fourQuestions(ctx: UserContext) {
  const conversation = await newConversation(ctx);
  for (const n of [1, 2, 3, 4])
    await turn(ctx, { id: conversation.id, message: said(`u${n}`, `question ${n}`) }, `answer ${n}`);
  return conversation;
}

describe("branches of a conversation", () => {
  it("edits the second of four questions as a new version, keeps the old continuation, and switches back", async () => {
    const conversation = await fourQuestions(owner);
    await turn(
      owner,
      { id: conversation.id, edit: "u2", message: said("u2b", "question 2, edited") },
      "answer to the edit",
    );
    // The model was given the history before the edited message, from the stored tree, and the edit.
    const [sent] = await sentToModel();
    expect(sent).toContain("question 1");
    expect(sent).toContain("answer 1");
    expect(sent).toContain("question 2, edited");
    expect(sent).not.toContain('"question 2"');
    expect(sent).not.toContain("question 3");

    let branches = await loadBranches(handle.db, conversation.id);
    expect(texts(branches.shown)).toEqual([
      "question 1",
      "answer 1",
      "question 2, edited",
      "answer to the edit",
    ]);
    expect(branches.versions).toEqual({ u2b: ["u2", "u2b"] });
    // Nothing of the old branch was deleted.
    expect(await storedRows(conversation.id)).toBe(10);

    // Showing the first version shows its whole continuation again, and the choice is stored.
    const shown = await showRequest(owner, conversation.id, { show: "u2" });
    expect(shown.status).toBe(200);
    const body = (await shown.json()) as { messages: UIMessage[]; versions: Record<string, string[]> };
    expect(texts(body.messages)).toEqual([
      "question 1",
      "answer 1",
      "question 2",
      "answer 2",
      "question 3",
      "answer 3",
      "question 4",
      "answer 4",
    ]);
    expect(body.versions).toEqual({ u2: ["u2", "u2b"] });
    expect(texts(await loadMessages(handle.db, conversation.id))).toHaveLength(8);
    // The next turn continues the branch shown.
    await turn(owner, { id: conversation.id, message: said("u5", "question 5") }, "answer 5");
    const [continued] = await sentToModel();
    expect(continued).toContain("question 4");
    expect(continued).not.toContain("question 2, edited");

    // And back to the edit.
    expect((await showRequest(owner, conversation.id, { show: "u2b" })).status).toBe(200);
    branches = await loadBranches(handle.db, conversation.id);
    expect(texts(branches.shown).at(-1)).toBe("answer to the edit");
    expect((await getConversation(handle.db, owner, conversation.id)).shownMessageId).toBe(
      branches.shown.at(-1)?.id,
    );
  });

  it("regenerates the first answer as a new version, with only the first question as history", async () => {
    const conversation = await newConversation(owner);
    await turn(owner, { id: conversation.id, message: said("u1", "question 1") }, "answer 1");
    await turn(owner, { id: conversation.id, message: said("u2", "question 2") }, "answer 2");
    const [, first] = await loadMessages(handle.db, conversation.id);
    await turn(owner, { id: conversation.id, regenerate: first?.id }, "answer 1, again");
    const [sent] = await sentToModel();
    expect(sent).toContain("question 1");
    expect(sent).not.toContain("question 2");
    const branches = await loadBranches(handle.db, conversation.id);
    expect(texts(branches.shown)).toEqual(["question 1", "answer 1, again"]);
    const again = branches.shown[1]?.id ?? "";
    expect(branches.versions).toEqual({ [again]: [first?.id, again] });
    expect(await storedRows(conversation.id)).toBe(5);

    // `regenerate: true` still answers the last question again, as one more version.
    await turn(owner, { id: conversation.id, regenerate: true }, "answer 1, third");
    const third = await loadBranches(handle.db, conversation.id);
    expect(texts(third.shown)).toEqual(["question 1", "answer 1, third"]);
    expect(Object.values(third.versions)[0]).toHaveLength(3);
  });

  it("refuses a forged branch point with 400, asking the model nothing and changing nothing", async () => {
    const conversation = await newConversation(owner);
    await turn(owner, { id: conversation.id, message: said("u1", "question 1") }, "answer 1");
    const elsewhere = await newConversation(owner);
    await turn(owner, { id: elsewhere.id, message: said("x1", "elsewhere") }, "answer elsewhere");
    const [, answer] = await loadMessages(handle.db, conversation.id);
    const [, foreignAnswer] = await loadMessages(handle.db, elsewhere.id);
    await script("must not be asked");
    const id = conversation.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ id, edit: "x1", message: said("n1", "edit") }, "No message of this conversation has that id."],
      [{ id, edit: "nope", message: said("n2", "edit") }, "No message of this conversation has that id."],
      [{ id, edit: answer?.id, message: said("n3", "edit") }, "Only your own messages can be edited"],
      [{ id, regenerate: "u1" }, "Only an answer can be regenerated"],
      [{ id, regenerate: foreignAnswer?.id }, "No message of this conversation has that id."],
      [{ id, regenerate: "nope" }, "No message of this conversation has that id."],
      [{ id, edit: "u1" }, "edit names the message that message replaces"],
      [{ id, edit: "u1", regenerate: true }, "edit names the message that message replaces"],
      [{ id, regenerate: "" }, "Name a message of this conversation by its id."],
    ];
    for (const [body, message] of cases)
      expect(await refusal(await turnRequest(owner, body))).toContain(message);
    expect(await refusal(await showRequest(owner, id, { show: "x1" }))).toBe(
      "No message of this conversation has that id.",
    );
    expect(await refusal(await showRequest(owner, id, {}))).toContain("show (the id of the version to show)");
    expect(await sentToModel()).toEqual([]);
    expect(texts(await loadMessages(handle.db, id))).toEqual(["question 1", "answer 1"]);
    expect(await storedRows(id)).toBe(2);
  });

  it("keeps the version shown per conversation, for its owner only", async () => {
    const conversation = await newConversation(member);
    await turn(member, { id: conversation.id, message: said("u1", "question 1") }, "answer 1");
    await turn(member, { id: conversation.id, edit: "u1", message: said("u1b", "question 1b") }, "answer 1b");
    // The owner of the organization, and anyone of another, cannot see or switch it.
    expect((await showRequest(owner, conversation.id, { show: "u1" })).status).toBe(404);
    expect((await showRequest(other, conversation.id, { show: "u1" })).status).toBe(404);
    expect(texts(await loadMessages(handle.db, conversation.id))).toEqual(["question 1b", "answer 1b"]);
    // Another conversation with the same message ids keeps its own choice.
    const second = await newConversation(member);
    await turn(member, { id: second.id, message: said("u1", "other 1") }, "other answer 1");
    await turn(member, { id: second.id, edit: "u1", message: said("u1b", "other 1b") }, "other answer 1b");
    expect((await showRequest(member, conversation.id, { show: "u1" })).status).toBe(200);
    expect(texts(await loadMessages(handle.db, conversation.id))).toEqual(["question 1", "answer 1"]);
    expect(texts(await loadMessages(handle.db, second.id))).toEqual(["other 1b", "other answer 1b"]);
  });

  it("appends a prompt's messages to the branch shown, and exports the branch shown, saying so", async () => {
    const conversation = await newConversation(owner);
    await turn(owner, { id: conversation.id, message: said("u1", "question 1") }, "answer 1");
    await turn(owner, { id: conversation.id, edit: "u1", message: said("u1b", "question 1b") }, "answer 1b");
    expect((await showRequest(owner, conversation.id, { show: "u1" })).status).toBe(200);
    await appendMessages(handle.db, await getConversation(handle.db, owner, conversation.id), [
      said("p1", "from a prompt") as UIMessage,
    ]);
    expect(texts(await loadMessages(handle.db, conversation.id))).toEqual([
      "question 1",
      "answer 1",
      "from a prompt",
    ]);
    signedIn.ctx = owner;
    const markdown = await (
      await exportRoute(new Request(`http://localhost/api/chat/${conversation.id}/export`) as never, {
        params: Promise.resolve({ id: conversation.id }),
      })
    ).text();
    expect(markdown).toContain(SHOWN_BRANCH_NOTE);
    expect(markdown).toContain("from a prompt");
    expect(markdown).not.toContain("question 1b");
  });

  it("stores what came of a stopped answer, and nothing after the stop", async () => {
    const conversation = await newConversation(owner);
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    await scriptAnswers(model.baseUrl, [{ text: words, delayMs: 100 }]);
    const stop = new AbortController();
    const response = await chatTurn(
      handle.db,
      owner,
      { id: conversation.id, message: said("u1", "many words") },
      { signal: stop.signal },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let seen = "";
    while (!seen.includes("word3")) seen += new TextDecoder().decode((await reader.read()).value);
    stop.abort();
    await reader.cancel().catch(() => undefined);
    await vi.waitFor(async () => expect(await loadMessages(handle.db, conversation.id)).toHaveLength(2), {
      timeout: 10_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const [, answer] = texts(await loadMessages(handle.db, conversation.id));
    expect(answer).toContain("word3");
    expect(answer).not.toContain("word39");
  }, 30_000);
});
