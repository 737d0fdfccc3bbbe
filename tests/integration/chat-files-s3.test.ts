import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chatFileDeletedObjects, chatFiles, organizations, users } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getChatFile, storeChatFile } from "@/lib/chat/chat-files";
import { deleteConversation, getConversation, loadMessages, saveMessages } from "@/lib/chat/conversations";
import { s3FileStore } from "@/lib/chat/file-store/s3-file-store";
import { sweepOrphanedChatFiles } from "@/lib/chat/orphaned-files";
import { AppError, toErrorResponse } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { makePdf, tinyPng } from "../fixtures/files/sample-files";
import { startFixture } from "../fixtures/mcp/start-fixture";
import { S3RVER_CREDENTIALS, startS3Store } from "../fixtures/s3/s3-store";
import { chatFileRequests } from "./chat-file-requests";
import { useDatabase } from "./gateway-client";
import { registerOwnerMemberAndOther, registerOwners } from "./org-users";
import { modelRequests, newChat, scriptAnswers, startChatModel } from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startChatModel();
const store = await startS3Store();
const S3_ENV = {
  CHAT_FILE_S3_URL: store.url,
  CHAT_FILE_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  CHAT_FILE_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
};
// Read once, by the first getEnv() of this file's modules.
Object.assign(process.env, S3_ENV);

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
  for (const name of Object.keys(S3_ENV)) delete process.env[name];
  await model.stop();
  await store.close();
  await handle?.close();
});

const newConversation = async (ctx: UserContext) => (await newChat(handle.db, ctx)).conversation.id;
const objectOf = (ctx: UserContext, fileId: string) => store.object(`${ctx.orgId}/${fileId}`);

const { upload, uploaded, download, turn } = chatFileRequests(signedIn);

type SentMessage = {
  role: string;
  content: string | { type: string; text?: string; image_url?: { url: string } }[];
};
const lastSent = async () =>
  (await modelRequests<{ messages: SentMessage[] }>(model.baseUrl)).at(-1)?.messages ?? [];

/** Stores a user's message attaching these files, the way a turn stores it. */
async function send(ctx: UserContext, conversationId: string, fileIds: string[]) {
  const conversation = await getConversation(handle.db, ctx, conversationId);
  const parts = fileIds.map((fileId) => ({
    type: "data-file" as const,
    data: { fileId, name: "dot.png", mediaType: "image/png", size: tinyPng.length },
  }));
  expect(
    await saveMessages(handle.db, conversation, [{ id: crypto.randomUUID(), role: "user", parts }]),
  ).toBe(true);
}

const rowsOf = async (ids: string[]) =>
  handle.db
    .select({ id: chatFiles.id, content: chatFiles.content })
    .from(chatFiles)
    .where(inArray(chatFiles.id, ids));
const queued = async () => handle.db.select().from(chatFileDeletedObjects);
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("chat files in an S3-compatible store", () => {
  it("keeps the bytes as the object <organization>/<file> and the rest in the row; the model receives the file", async () => {
    const id = await newConversation(owner);
    const image = await uploaded(owner, id, "dot.png", tinyPng);
    const pdf = await uploaded(owner, id, "report.pdf", makePdf("Revenue grew nine percent"));
    expect((await objectOf(owner, image.fileId))?.equals(tinyPng)).toBe(true);
    expect(await objectOf(owner, pdf.fileId)).not.toBeNull();
    expect((await rowsOf([image.fileId, pdf.fileId])).map((row) => row.content)).toEqual([null, null]);

    await scriptAnswers(model.baseUrl, [{ text: "A dot, and a report." }]);
    const response = await turn(owner, id, [
      { type: "text", text: "What are these?" },
      { type: "data-file", data: { fileId: image.fileId } },
      { type: "data-file", data: { fileId: pdf.fileId } },
    ]);
    expect(response.status).toBe(200);
    await response.text();
    const content = (await lastSent()).find((message) => message.role === "user")?.content;
    const parts = Array.isArray(content) ? content : [];
    expect(parts[1]?.image_url?.url).toBe(`data:image/png;base64,${tinyPng.toString("base64")}`);
    expect(parts[2]?.text).toContain("Revenue grew nine percent");
  });

  it("hands a file's bytes, read from the store, to a tool that takes files", async () => {
    const [fay] = (await registerOwners(handle.db, "Fay")) as [UserContext];
    const fixture = await startFixture("file-taker");
    try {
      signedIn.ctx = fay;
      await createIntegration(handle.db, fay, {
        source: "custom",
        name: "Files",
        transport: "streamable-http",
        url: fixture.url,
        timeoutMs: 10_000,
      });
      const id = await newConversation(fay);
      const note = Buffer.from("Quarterly numbers: 42\n");
      const file = await uploaded(fay, id, "numbers.txt", note);
      expect((await objectOf(fay, file.fileId))?.equals(note)).toBe(true);
      await scriptAnswers(model.baseUrl, [
        { toolCalls: [{ name: "files_base64_digest", arguments: { data: `chat-file:${file.fileId}` } }] },
        { text: "Done." },
      ]);
      const streamed = await (
        await turn(fay, id, [
          { type: "text", text: "Digest it." },
          { type: "data-file", data: { fileId: file.fileId } },
        ])
      ).text();
      expect(streamed).toContain(
        `${note.length} bytes, sha256 ${createHash("sha256").update(note).digest("hex")}`,
      );
    } finally {
      await getMcpClient().pool.closeAll();
      await fixture.stop();
    }
  });

  it("serves the bytes back to their owner, and 404 to a member and another organization", async () => {
    const id = await newConversation(owner);
    const file = await uploaded(owner, id, "dot.png", tinyPng);
    const response = await download(owner, id, file.fileId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await response.arrayBuffer()).equals(tinyPng)).toBe(true);
    expect((await download(member, id, file.fileId)).status).toBe(404);
    expect((await download(other, id, file.fileId)).status).toBe(404);
    // Named in a conversation of the other organization's own, the id still finds nothing of this organization.
    const theirs = await newConversation(other);
    expect((await download(other, theirs, file.fileId)).status).toBe(404);
    await expect(getChatFile(handle.db, other, theirs, file.fileId)).rejects.toThrow(
      "That file was not found.",
    );
  });

  it("still reads a file whose bytes were kept in the database before the store was configured", async () => {
    const id = await newConversation(owner);
    const [row] = await handle.db
      .insert(chatFiles)
      .values({
        organizationId: owner.orgId,
        userId: owner.userId,
        conversationId: id,
        name: "old.png",
        mediaType: "image/png",
        size: tinyPng.length,
        content: tinyPng,
      })
      .returning({ id: chatFiles.id });
    const response = await download(owner, id, row?.id ?? "");
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(tinyPng)).toBe(true);
  });

  it("deletes the object of a file the orphan sweep deletes, and keeps a sent file's", async () => {
    const id = await newConversation(owner);
    const sent = (await storeChatFile(handle.db, owner, id, { name: "a.png", bytes: tinyPng })).fileId;
    const unsent = (await storeChatFile(handle.db, owner, id, { name: "b.png", bytes: tinyPng })).fileId;
    await send(owner, id, [sent]);
    await handle.db
      .update(chatFiles)
      .set({ createdAt: new Date(Date.now() - 48 * 60 * 60_000) })
      .where(inArray(chatFiles.id, [sent, unsent]));
    expect(await sweepOrphanedChatFiles(handle.db)).toBe(1);
    expect(await objectOf(owner, unsent)).toBeNull();
    expect(await objectOf(owner, sent)).not.toBeNull();
    expect(await queued()).toEqual([]);
  });

  it("deletes the objects of a deleted conversation's files, sent or not", async () => {
    const id = await newConversation(owner);
    const sent = (await storeChatFile(handle.db, owner, id, { name: "a.png", bytes: tinyPng })).fileId;
    const unsent = (await storeChatFile(handle.db, owner, id, { name: "b.png", bytes: tinyPng })).fileId;
    await send(owner, id, [sent]);
    await deleteConversation(handle.db, owner, id);
    expect(await rowsOf([sent, unsent])).toEqual([]);
    expect(await objectOf(owner, sent)).toBeNull();
    expect(await objectOf(owner, unsent)).toBeNull();
    expect(await queued()).toEqual([]);
  });

  it("deletes the objects of a user or an organization deleted outside the app on the next sweep", async () => {
    const [gil, hal] = (await registerOwners(handle.db, "Gil", "Hal")) as [UserContext, UserContext];
    const gilFile = (
      await storeChatFile(handle.db, gil, await newConversation(gil), { name: "a.png", bytes: tinyPng })
    ).fileId;
    const halFile = (
      await storeChatFile(handle.db, hal, await newConversation(hal), { name: "a.png", bytes: tinyPng })
    ).fileId;
    // An operator's SQL: the rows go by cascade, and the database queues their objects.
    await handle.db.delete(organizations).where(eq(organizations.id, gil.orgId));
    await handle.db.delete(users).where(eq(users.id, hal.userId));
    expect(await rowsOf([gilFile, halFile])).toEqual([]);
    expect(new Set((await queued()).map((row) => `${row.organizationId}/${row.fileId}`))).toEqual(
      new Set([`${gil.orgId}/${gilFile}`, `${hal.orgId}/${halFile}`]),
    );
    expect(await objectOf(gil, gilFile)).not.toBeNull();
    await sweepOrphanedChatFiles(handle.db);
    expect(await objectOf(gil, gilFile)).toBeNull();
    expect(await objectOf(hal, halFile)).toBeNull();
    expect(await queued()).toEqual([]);
  });

  it("answers 503 saying the file store did not answer while it is down, and catches up once it is back", async () => {
    const id = await newConversation(owner);
    const kept = await uploaded(owner, id, "dot.png", tinyPng);
    const pdf = await uploaded(owner, id, "report.pdf", makePdf("Revenue grew nine percent"));
    const doomed = await newConversation(owner);
    const doomedFile = (await storeChatFile(handle.db, owner, doomed, { name: "a.png", bytes: tinyPng }))
      .fileId;
    await store.stop();
    try {
      const refused = await upload(owner, id, "late.png", tinyPng);
      expect(refused.status).toBe(503);
      const body = await refused.text();
      expect(JSON.parse(body)).toEqual({
        error: "The file store did not answer. Try again in a moment.",
        code: "unavailable:file_store",
      });
      expect(body).not.toContain(store.url);
      // The upload left no row behind.
      const rows = await handle.db
        .select({ name: chatFiles.name })
        .from(chatFiles)
        .where(eq(chatFiles.conversationId, id));
      expect(rows.map((row) => row.name).sort()).toEqual(["dot.png", "report.pdf"]);

      const unread = await download(owner, id, kept.fileId);
      expect(unread.status).toBe(503);
      expect(await errorOf(unread)).toBe("The file store did not answer. Try again in a moment.");

      // A turn that needs an image's bytes fails before anything is stored; a PDF is read from its extracted text.
      const imageTurn = await turn(owner, id, [{ type: "data-file", data: { fileId: kept.fileId } }]);
      expect(imageTurn.status).toBe(503);
      expect(await errorOf(imageTurn)).toBe("The file store did not answer. Try again in a moment.");
      expect(await loadMessages(handle.db, id)).toEqual([]);
      await scriptAnswers(model.baseUrl, [{ text: "Nine percent." }]);
      const pdfTurn = await turn(owner, id, [{ type: "data-file", data: { fileId: pdf.fileId } }]);
      expect(pdfTurn.status).toBe(200);
      await pdfTurn.text();
      expect(JSON.stringify(await lastSent())).toContain("Revenue grew nine percent");

      // Deleting a conversation does not wait for the store: its object stays queued (beside the failed upload's,
      // whose PUT may have landed all the same).
      await deleteConversation(handle.db, owner, doomed);
      expect((await queued()).map((row) => row.fileId)).toContain(doomedFile);
    } finally {
      await store.restart();
    }
    expect((await download(owner, id, kept.fileId)).status).toBe(200);
    expect(await objectOf(owner, doomedFile)).not.toBeNull();
    await sweepOrphanedChatFiles(handle.db);
    expect(await objectOf(owner, doomedFile)).toBeNull();
    expect(await queued()).toEqual([]);
  });

  it("answers 502 when the store refuses the credentials, naming neither the secret nor the store", async () => {
    const secret = "not-the-secret-0123456789abcdef";
    const settings = { url: store.url, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: secret };
    for (const [wrong, code] of [
      [settings, "SignatureDoesNotMatch"],
      [{ ...settings, accessKeyId: "UNKNOWN" }, "InvalidAccessKeyId"],
      [{ ...settings, secretAccessKey: "S3RVER", region: "eu-west-1" }, "AuthorizationHeaderMalformed"],
    ] as const) {
      const error = await s3FileStore(wrong)
        .put({ orgId: owner.orgId, fileId: crypto.randomUUID() }, tinyPng)
        .catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(String(error.cause)).toContain(`PUT answered 403 (${code})`);
      const response = toErrorResponse(error);
      expect(response.status).toBe(502);
      const body = await response.text();
      expect(JSON.parse(body).error).toBe(
        "The file store could not keep or return the file. Try again later.",
      );
      expect(body).not.toContain(secret);
      expect(body).not.toContain(store.url);
    }
  });
});
