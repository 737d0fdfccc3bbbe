import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { readChatFiles } from "@/lib/chat/chat-files";
import { loadMessages } from "@/lib/chat/conversations";
import { elfBytes, makePdf, tinyPng } from "../fixtures/files/sample-files";
import { chatFileRequests } from "./chat-file-requests";
import { useDatabase } from "./gateway-client";
import { registerOwnerMemberAndOther } from "./org-users";
import { modelRequests, newChat, scriptAnswers, startChatModel } from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// The chat's user is whoever the test signs in.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startChatModel();
// Small limits, so a test can cross them.
process.env.CHAT_FILE_MAX_BYTES = "4096";
process.env.CHAT_TOOL_RESULT_MAX_CHARS = "500";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let member: UserContext;
let other: UserContext;
let conversationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  ({ owner, member, other } = await registerOwnerMemberAndOther(handle.db));
  conversationId = await newConversation(owner);
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await model.stop();
  await handle?.close();
});

const newConversation = async (ctx: UserContext) => (await newChat(handle.db, ctx)).conversation.id;

const { upload, uploaded, download, turn } = chatFileRequests(signedIn);

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
type SentMessage = {
  role: string;
  content: string | { type: string; text?: string; image_url?: { url: string } }[];
};
const lastSent = async () =>
  (await modelRequests<{ messages: SentMessage[] }>(model.baseUrl)).at(-1)?.messages ?? [];

describe("uploading a file to a conversation", () => {
  it("stores an image with the type read from its bytes, whatever the browser claimed", async () => {
    const response = await upload(owner, conversationId, "C:\\photos\\dot.png", tinyPng, "text/html");
    expect(response.status).toBe(201);
    const file = (await response.json()) as Record<string, unknown>;
    expect(file).toEqual({
      fileId: expect.any(String),
      name: "dot.png",
      mediaType: "image/png",
      size: tinyPng.length,
    });
  });

  it("refuses a file over the limit with 413 naming the limit", async () => {
    const response = await upload(owner, conversationId, "big.txt", Buffer.alloc(5000, "a"));
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toBe("A file is at most 4 KB; this one is larger.");
  });

  it("refuses a type the chat does not take with 415 naming the types it takes, even under an image's name", async () => {
    const response = await upload(owner, conversationId, "holiday.png", elfBytes, "image/png");
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toBe(
      "This kind of file cannot be attached: the chat takes PNG, JPEG, GIF or WebP images, PDFs and text files.",
    );
    const empty = await upload(owner, conversationId, "empty.txt", Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toBe("The file is empty.");
  });

  it("refuses a conversation that is not the user's with 404", async () => {
    expect((await upload(other, conversationId, "note.txt", Buffer.from("hello"))).status).toBe(404);
    expect((await upload(member, conversationId, "note.txt", Buffer.from("hello"))).status).toBe(404);
  });

  it("extracts a text file's and a PDF's text once, cut to the budget with a marker", async () => {
    const long = await uploaded(owner, conversationId, "long.md", Buffer.from("x".repeat(2_000)));
    expect(long.mediaType).toBe("text/plain");
    const pdf = await uploaded(owner, conversationId, "report.pdf", makePdf("Revenue grew nine percent"));
    expect(pdf.mediaType).toBe("application/pdf");
    const [first, second] = await readChatFiles(handle.db, owner, conversationId, [long.fileId, pdf.fileId]);
    const byId = new Map([first, second].map((f) => [f?.fileId, f]));
    expect(byId.get(long.fileId)?.text).toBe(
      `${"x".repeat(500)}\n[… truncated: 1,500 more characters. The full result is shown to the user.]`,
    );
    expect(byId.get(pdf.fileId)?.text).toBe("Revenue grew nine percent");
    const broken = await upload(owner, conversationId, "broken.pdf", Buffer.from("%PDF-1.4\nnot really"));
    expect(broken.status).toBe(400);
    expect(await errorOf(broken)).toContain("That PDF could not be read");
  });
});

describe("reading a file back", () => {
  it("serves the owner the bytes with their type, and 404 to a member, another organization and a wrong conversation", async () => {
    const file = await uploaded(owner, conversationId, "dot.png", tinyPng);
    const response = await download(owner, conversationId, file.fileId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(tinyPng)).toBe(true);
    expect((await download(member, conversationId, file.fileId)).status).toBe(404);
    expect((await download(other, conversationId, file.fileId)).status).toBe(404);
    const elsewhere = await newConversation(owner);
    expect((await download(owner, elsewhere, file.fileId)).status).toBe(404);
    expect((await download(owner, conversationId, "not-a-uuid")).status).toBe(404);
  });
});

describe("a turn that attaches files", () => {
  it("sends an image as an image part and a text file as its text, and stores the attachments by name and size", async () => {
    const id = await newConversation(owner);
    const image = await uploaded(owner, id, "dot.png", tinyPng);
    const note = await uploaded(owner, id, "note.txt", Buffer.from("The launch code word is heron."));
    await scriptAnswers(model.baseUrl, [{ text: "A dot, and a heron." }]);
    const response = await turn(owner, id, [
      { type: "text", text: "What are these?" },
      // A name or size the browser sends is not what is stored: the server's are.
      { type: "data-file", data: { fileId: image.fileId, name: "forged.exe", size: 1 } },
      { type: "data-file", data: { fileId: note.fileId } },
    ]);
    expect(response.status).toBe(200);
    await response.text();
    const user = (await lastSent()).find((m) => m.role === "user");
    const content = Array.isArray(user?.content) ? user.content : [];
    expect(content.map((part) => part.type)).toEqual(["text", "image_url", "text"]);
    expect(content[1]?.image_url?.url).toBe(`data:image/png;base64,${tinyPng.toString("base64")}`);
    expect(content[2]?.text).toBe(
      'Attached file "note.txt" (text/plain, 30 B):\n\nThe launch code word is heron.',
    );
    const stored = await loadMessages(handle.db, id);
    expect(stored[0]?.parts.slice(1)).toEqual([
      {
        type: "data-file",
        data: { fileId: image.fileId, name: "dot.png", mediaType: "image/png", size: tinyPng.length },
      },
      {
        type: "data-file",
        data: { fileId: note.fileId, name: "note.txt", mediaType: "text/plain", size: 30 },
      },
    ]);
  });

  it("refuses a file of another conversation, person or organization with 404 and stores nothing", async () => {
    const id = await newConversation(owner);
    const mine = await uploaded(owner, conversationId, "dot.png", tinyPng);
    const theirs = await uploaded(other, await newConversation(other), "dot.png", tinyPng);
    for (const fileId of [mine.fileId, theirs.fileId]) {
      const response = await turn(owner, id, [{ type: "data-file", data: { fileId } }]);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toBe("That file was not found.");
    }
    const memberConversation = await newConversation(member);
    const refused = await turn(member, memberConversation, [
      { type: "data-file", data: { fileId: mine.fileId } },
    ]);
    expect(refused.status).toBe(404);
    expect(await loadMessages(handle.db, id)).toEqual([]);
    const bad = await turn(owner, id, [{ type: "data-file", data: { fileId: "nope" } }]);
    expect(bad.status).toBe(400);
  });
});
