import type { FilePart, TextPart, UIMessage } from "ai";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { type ChatFileForModel, readChatFileInfos, readChatFilesForModel } from "./chat-files";
import { fileAttachmentSchema, fileReferenceSchema } from "./file-attachment-schema";
import { formatFileSize } from "./file-types";

type Parts = { parts: { type: string; data?: unknown }[] };

const fileIdsOf = (messages: Parts[]) =>
  messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (part.type !== "data-file") return [];
      const parsed = fileReferenceSchema.safeParse(part.data);
      return parsed.success ? [parsed.data.fileId] : [];
    }),
  );

/**
 * A user's message as stored: each `data-file` part names a file uploaded to this conversation by this user, and
 * carries the file's name, type and size as the server stored them; a file of anyone else's is a 404.
 */
export async function withFilesRead<Message extends Parts>(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  message: Message,
): Promise<Message> {
  if (!message.parts.some((part) => part.type === "data-file")) return message;
  const wanted = message.parts
    .filter((part) => part.type === "data-file")
    .map((part) => parseInput(fileReferenceSchema, part.data).fileId);
  const files = new Map(
    (await readChatFileInfos(db, ctx, conversationId, wanted)).map((file) => [file.fileId, file]),
  );
  const parts = message.parts.map((part) => {
    if (part.type !== "data-file") return part;
    const file = files.get(parseInput(fileReferenceSchema, part.data).fileId);
    if (!file) throw new NotFoundError("That file");
    const { fileId, name, mediaType, size } = file;
    return { ...part, data: { fileId, name, mediaType, size } };
  });
  return { ...message, parts };
}

/** The files the conversation's messages attach, read once per turn for the model. */
export async function filesOfMessages(
  db: Database,
  ctx: UserContext,
  conversationId: string,
  messages: UIMessage[],
  turn: { takesImages: boolean; toolsTakeFiles: boolean },
): Promise<Map<string, ChatFileForModel>> {
  const ids = [...new Set(fileIdsOf(messages))];
  const files = await readChatFilesForModel(db, ctx, conversationId, ids, turn);
  return new Map(files.map((file) => [file.fileId, file]));
}

/**
 * What the model receives for an attached file: an image as an image part (or, for a model that takes no images, a
 * note that one was attached, so it can tell the user), other files as their extracted text.
 */
export function fileForModel(
  data: unknown,
  files: Map<string, ChatFileForModel>,
  model: { name: string; takesImages: boolean },
): TextPart | FilePart | undefined {
  const parsed = fileAttachmentSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const file = files.get(parsed.data.fileId);
  const label = `Attached file "${parsed.data.name}" (${parsed.data.mediaType}, ${formatFileSize(parsed.data.size)})`;
  if (!file) return { type: "text", text: `${label}: no longer available.` };
  if (file.mediaType.startsWith("image/"))
    return model.takesImages && file.content
      ? { type: "file", data: new Uint8Array(file.content), mediaType: file.mediaType, filename: file.name }
      : {
          type: "text",
          text: `An image named "${file.name}" was attached, but this model (${model.name}) cannot see images, so it was not sent.`,
        };
  return { type: "text", text: `${label}:\n\n${file.text ?? ""}` };
}
