import { z } from "zod";
import type { ChatFileForModel } from "./chat-files";
import { formatFileSize } from "./file-types";

/**
 * How a tool argument takes a file: as an RFC 2397 data URI with the file's name (MCP's proposed file inputs,
 * SEP-2356: a URI string marked `x-mcp-file` or `mcpFile`), or as bare base64 (`contentEncoding: "base64"`).
 */
export type FileEncoding = "data-uri" | "base64";

/** Which of a tool's arguments take files, and how (an argument may take a list of them). */
export type FileArguments = Record<string, FileEncoding>;

const HANDLE = /^chat-file:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** What the model passes to hand an attached file to a tool. */
export const fileHandle = (fileId: string) => `chat-file:${fileId}`;

const propertySchema = z.looseObject({
  type: z.unknown().optional(),
  contentEncoding: z.unknown().optional(),
  items: z.unknown().optional(),
});

function encodingOf(schema: unknown): FileEncoding | undefined {
  const parsed = propertySchema.safeParse(schema);
  if (!parsed.success) return undefined;
  const property = parsed.data;
  if (property.type === "array") return encodingOf(property.items);
  if ("x-mcp-file" in property || "mcpFile" in property) return "data-uri";
  return property.contentEncoding === "base64" ? "base64" : undefined;
}

/** The arguments of a tool's input schema that take a file. */
export function fileArgumentsOf(inputSchema: Record<string, unknown>): FileArguments | undefined {
  const properties = z.record(z.string(), z.unknown()).safeParse(inputSchema.properties);
  if (!properties.success) return undefined;
  const found = Object.entries(properties.data).flatMap(([name, schema]) => {
    const encoding = encodingOf(schema);
    return encoding ? [[name, encoding] as const] : [];
  });
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

export class UnknownFileHandleError extends Error {
  constructor(handle: string) {
    super(`${handle} is not a file attached in this conversation; pass the handle of one listed to you.`);
    this.name = "UnknownFileHandleError";
  }
}

function encode(file: ChatFileForModel, encoding: FileEncoding): string {
  // A turn whose tools take files reads every file's bytes (readChatFilesForModel); this is a safeguard.
  if (!file.content) throw new UnknownFileHandleError(fileHandle(file.fileId));
  const base64 = file.content.toString("base64");
  if (encoding === "base64") return base64;
  return `data:${file.mediaType};name=${encodeURIComponent(file.name)};base64,${base64}`;
}

/**
 * The model's arguments with each file handle in an argument that takes files replaced by the file itself; other
 * values (a URL the model wrote, say) are left as they are. A handle of a file not in the conversation is an error
 * the model reads.
 */
export function withFilesResolved(
  args: Record<string, unknown>,
  fileArguments: FileArguments,
  files: ReadonlyMap<string, ChatFileForModel>,
): Record<string, unknown> {
  const resolve = (value: unknown, encoding: FileEncoding): unknown => {
    if (Array.isArray(value)) return value.map((item) => resolve(item, encoding));
    if (typeof value !== "string") return value;
    const handle = HANDLE.exec(value.trim());
    if (!handle) return value;
    const file = files.get((handle[1] as string).toLowerCase());
    if (!file) throw new UnknownFileHandleError(value.trim());
    return encode(file, encoding);
  };
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => {
      const encoding = fileArguments[name];
      return [name, encoding ? resolve(value, encoding) : value];
    }),
  );
}

/** What the model is told of the conversation's files when one of its tools takes files: each file's handle. */
export function fileHandlesNote(files: ReadonlyMap<string, ChatFileForModel>): string | undefined {
  if (files.size === 0) return undefined;
  const lines = [...files.values()].map(
    (file) =>
      `- "${file.name}" (${file.mediaType}, ${formatFileSize(file.size)}): ${fileHandle(file.fileId)}`,
  );
  return [
    "Files attached in this conversation. To hand one to a tool argument that takes a file, pass its handle as the value:",
    ...lines,
  ].join("\n");
}

/** What a chat turn hands its tools (the AI SDK's experimental_context): the conversation's files, by id. */
export interface ToolTurnContext {
  files: ReadonlyMap<string, ChatFileForModel>;
}

const noFiles: ReadonlyMap<string, ChatFileForModel> = new Map();

export function filesOfTurn(context: unknown): ReadonlyMap<string, ChatFileForModel> {
  const files = (context as Partial<ToolTurnContext> | undefined)?.files;
  return files instanceof Map ? files : noFiles;
}
