import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { chatFiles } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { AppError, NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/validation";
import { getConversation } from "./conversations";
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
  const [row] = await db
    .insert(chatFiles)
    .values({
      organizationId: ctx.orgId,
      userId: ctx.userId,
      conversationId: conversation.id,
      name: cleanFileName(file.name),
      mediaType: sniffed.mediaType,
      size: file.bytes.length,
      content: file.bytes,
      text,
    })
    .returning({
      id: chatFiles.id,
      name: chatFiles.name,
      mediaType: chatFiles.mediaType,
      size: chatFiles.size,
    });
  if (!row) throw new Error("The file was not stored.");
  await sweepOrphanedChatFilesNowAndThen(db);
  return info(row);
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
  const rows = await db
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
  return rows.map((row) => ({ ...info(row), content: row.content, text: row.text }));
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
