import type { BlobResourceContents, TextResourceContents } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { parseInput } from "@/lib/validation";
import type { ConversationFeatures } from "./conversation-start";

/** How much of a resource's text goes into the conversation; the rest is cut with a marker. */
export const ATTACHMENT_MAX_CHARS = 100_000;

export const resourceAttachmentSchema = z.object({
  integrationId: z.uuid(),
  uri: z.string().min(1).max(2048),
  name: z.string().max(300),
  mimeType: z.string().max(200).optional(),
  text: z.string().max(ATTACHMENT_MAX_CHARS + 200),
  truncated: z.boolean(),
});

/** A resource read at the moment it was attached, kept with the user's message as a `data-resource` part. */
export type ResourceAttachment = z.infer<typeof resourceAttachmentSchema>;

/** Which resource of the conversation to attach; any other field a browser sends is dropped. */
export const attachmentReferenceSchema = z.object({
  integrationId: z.uuid({ error: "Choose a resource of this conversation." }),
  uri: z.string().min(1, { error: "Choose a resource of this conversation." }).max(2048),
});

function describeContents(item: TextResourceContents | BlobResourceContents): string {
  if ("text" in item) return item.text;
  const size = Math.round((item.blob.length * 3) / 4 / 1024);
  return `[binary content: ${item.mimeType ?? "unknown type"}, ${size} KB]`;
}

/** Reads a resource the conversation's integrations listed, so it can be attached to a message. */
export async function readResourceAttachment(
  db: Database,
  ctx: UserContext,
  features: Pick<ConversationFeatures, "resources">,
  input: unknown,
): Promise<ResourceAttachment> {
  const { integrationId, uri } = parseInput(attachmentReferenceSchema, input);
  const resource = features.resources.find((r) => r.integrationId === integrationId && r.uri === uri);
  if (!resource) throw new NotFoundError("That resource");
  const read = await mcpUseCases(db).readResource(ctx, { integrationId, uri });
  const whole = read.contents.map(describeContents).join("\n\n");
  const truncated = whole.length > ATTACHMENT_MAX_CHARS;
  return {
    integrationId,
    uri,
    name: resource.name,
    mimeType: resource.mimeType ?? read.contents[0]?.mimeType,
    text: truncated
      ? `${whole.slice(0, ATTACHMENT_MAX_CHARS)}\n[… truncated: ${(whole.length - ATTACHMENT_MAX_CHARS).toLocaleString("en")} more characters]`
      : whole,
    truncated,
  };
}

/** A user's message as stored: each attached resource read by the server now, whatever the browser held. */
export async function withAttachmentsRead<Message extends { parts: { type: string; data?: unknown }[] }>(
  db: Database,
  ctx: UserContext,
  features: Pick<ConversationFeatures, "resources">,
  message: Message,
): Promise<Message> {
  if (!message.parts.some((part) => part.type === "data-resource")) return message;
  const parts = await Promise.all(
    message.parts.map(async (part) =>
      part.type === "data-resource"
        ? { ...part, data: await readResourceAttachment(db, ctx, features, part.data) }
        : part,
    ),
  );
  return { ...message, parts };
}

/** The text the model reads for an attached resource. */
export function attachmentForModel(data: unknown): { type: "text"; text: string } | undefined {
  const parsed = resourceAttachmentSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { name, uri, text } = parsed.data;
  return { type: "text", text: `Attached resource "${name}" (${uri}):\n\n${text}` };
}
