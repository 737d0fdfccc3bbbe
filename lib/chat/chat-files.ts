import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { chatFiles } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { AppError, NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/validation";
import { getConversation } from "./conversations";
import { chatFileStore } from "./file-store/chat-file-store";
import { extractFileText } from "./file-text";
import { formatFileSize, sniffFileType } from "./file-types";
import { sweepOrphanedChatFilesNowAndThen } from "./orphaned-files";

/** A stored file as the browser and the stored message know it: never its bytes. */
export interface ChatFileInfo {
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
}

/** A stored file with what the model reads of it. */
export interface ChatFileContent extends ChatFileInfo {
  content: Buffer;
  text: string | null;
}

export const ALLOWED_FILES = "PNG, JPEG, GIF or WebP images, PDFs and text files";

/** A file name as shown and exported: no path, no control characters, at most 200 characters, never empty. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).at(-1) ?? "";
  const clean = [...base]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join("")
    .trim()
    .slice(0, 200);
  return clean || "file";
}

export function fileTooLarge(limit: number) {
  return new AppError(
    "payload_too_large:file",
    `A file is at most ${formatFileSize(limit)}; this one is larger.`,
  );
}

const info = (row: { id: string; name: string; mediaType: string; size: number }): ChatFileInfo => ({
  fileId: row.id,
  name: row.name,
  mediaType: row.mediaType,
  size: row.size,
});

/**
 * Keeps a file the user attached in one of their conversations: its size checked against the limit, its type
 * read from its bytes (images, PDFs, text), its text extracted once for the model.
 */
export async function storeChatFile(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  file: { name: string; bytes: Buffer },
): Promise<ChatFileInfo> {
  const conversation = await getConversation(db, ctx, conversationId);
  const env = getEnv();
  if (file.bytes.length > env.CHAT_FILE_MAX_BYTES) throw fileTooLarge(env.CHAT_FILE_MAX_BYTES);
  if (file.bytes.length === 0) throw new AppError("bad_request:file", "The file is empty.");
  const sniffed = sniffFileType(file.bytes);
  if (!sniffed)
    throw new AppError(
      "unsupported_media_type:file",
      `This kind of file cannot be attached: the chat takes ${ALLOWED_FILES}.`,
    );
  const text = await extractFileText(sniffed.kind, file.bytes, env.CHAT_TOOL_RESULT_MAX_CHARS);
  const store = chatFileStore(db);
  // The database store takes the bytes with the row. Elsewhere the row goes first and its bytes then: a row whose
  // bytes never arrived is deleted here, or else by the orphan sweep.
  const inRow = store.kind === "database";
  const [row] = await db
    .insert(chatFiles)
    .values({
      organizationId: ctx.orgId,
      userId: ctx.userId,
      conversationId: conversation.id,
      name: cleanFileName(file.name),
      mediaType: sniffed.mediaType,
      size: file.bytes.length,
      text,
      ...(inRow ? { content: file.bytes } : {}),
    })
    .returning({
      id: chatFiles.id,
      name: chatFiles.name,
      mediaType: chatFiles.mediaType,
      size: chatFiles.size,
    });
  if (!row) throw new Error("The file was not stored.");
  if (!inRow)
    try {
      await store.put({ orgId: ctx.orgId, fileId: row.id }, file.bytes);
    } catch (error) {
      await db
        .delete(chatFiles)
        .where(and(eq(chatFiles.id, row.id), eq(chatFiles.organizationId, ctx.orgId)));
      throw error;
    }
  await sweepOrphanedChatFilesNowAndThen(db);
  return info(row);
}

const fileRowsOf = (db: Database, ctx: UserContext, conversationId: string, ids: string[]) =>
  db
    .select()
    .from(chatFiles)
    .where(
      and(
        inArray(chatFiles.id, ids),
        eq(chatFiles.conversationId, conversationId),
        eq(chatFiles.organizationId, ctx.orgId),
        eq(chatFiles.userId, ctx.userId),
      ),
    );

/** The name, type and size of files of one of the user's conversations, by id, without their bytes. */
export async function readChatFileInfos(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  fileIds: string[],
): Promise<ChatFileInfo[]> {
  const ids = fileIds.filter(isUuid);
  if (ids.length === 0) return [];
  return (await fileRowsOf(db, ctx, conversationId, ids)).map(info);
}

/** Files of one of the user's conversations, by id; any id that is not theirs there is left out. */
export async function readChatFiles(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  fileIds: string[],
): Promise<ChatFileContent[]> {
  const ids = fileIds.filter(isUuid);
  if (ids.length === 0) return [];
  const files = await readFiles(db, ctx, conversationId, ids, () => true);
  return files.map(({ content, ...file }) => {
    if (!content) throw new Error("A file's bytes were not read.");
    return { ...file, content };
  });
}

/** A file as the model reads it: its text, and its bytes only when they were asked for. */
export interface ChatFileForModel extends ChatFileInfo {
  content: Buffer | null;
  text: string | null;
}

/**
 * Files of one of the user's conversations for a turn: the bytes of every file when a tool of the turn takes files,
 * else of images only, and only for a model that takes images; the model reads other files as the text extracted
 * at upload, so their bytes are not fetched.
 */
export async function readChatFilesForModel(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  fileIds: string[],
  turn: { takesImages: boolean; toolsTakeFiles: boolean },
): Promise<ChatFileForModel[]> {
  const ids = fileIds.filter(isUuid);
  if (ids.length === 0) return [];
  return readFiles(
    db,
    ctx,
    conversationId,
    ids,
    (row) => turn.toolsTakeFiles || (turn.takesImages && row.mediaType.startsWith("image/")),
  );
}

async function readFiles(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  ids: string[],
  wantsBytes: (row: { mediaType: string }) => boolean,
): Promise<ChatFileForModel[]> {
  const rows = await fileRowsOf(db, ctx, conversationId, ids);
  const store = chatFileStore(db);
  // Bytes kept in the row (the database store, or a file stored before the S3 store was configured) are read there.
  return Promise.all(
    rows.map(async (row) => ({
      ...info(row),
      content: !wantsBytes(row)
        ? null
        : (row.content ?? (await store.get({ orgId: row.organizationId, fileId: row.id }))),
      text: row.text,
    })),
  );
}

/** One file of the user's conversation, or 404 for anyone else's (whether it exists is not told). */
export async function getChatFile(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  fileId: string,
): Promise<ChatFileContent> {
  const conversation = await getConversation(db, ctx, conversationId);
  const [file] = await readChatFiles(db, ctx, conversation.id, [fileId]);
  if (!file) throw new NotFoundError("That file");
  return file;
}
