import { randomUUID } from "node:crypto";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { UIMessage } from "ai";
import { z } from "zod";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { parseInput } from "@/lib/validation";
import type { ConversationFeatures } from "./conversation-start";

const promptRequestSchema = z.object({
  integrationId: z.uuid({ error: "Choose a prompt of this conversation." }),
  name: z.string().min(1, { error: "Choose a prompt of this conversation." }).max(200),
  arguments: z.record(
    z.string(),
    z.string().max(10_000, { error: "Use at most 10,000 characters per argument." }),
  ),
});

function partOf(content: ContentBlock): UIMessage["parts"][number] {
  if (content.type === "text") return { type: "text", text: content.text };
  if (content.type === "image" || content.type === "audio") {
    const mediaType = content.mimeType || "application/octet-stream";
    return { type: "file", mediaType, url: `data:${mediaType};base64,${content.data}` };
  }
  if (content.type === "resource") {
    const { resource } = content;
    return {
      type: "text",
      text: `Resource ${resource.uri}:\n\n${"text" in resource ? resource.text : "[binary content]"}`,
    };
  }
  return { type: "text", text: JSON.stringify(content) };
}

/**
 * Renders one of the conversation's MCP prompts (a slash command) with the user's arguments into the messages
 * it stands for, ready to join the conversation.
 */
export async function renderConversationPrompt(
  db: Database,
  ctx: UserContext,
  features: Pick<ConversationFeatures, "prompts">,
  input: unknown,
): Promise<UIMessage[]> {
  const request = parseInput(promptRequestSchema, input);
  const prompt = features.prompts.find(
    (p) => p.integrationId === request.integrationId && p.name === request.name,
  );
  if (!prompt) throw new NotFoundError("That prompt");
  const declared = prompt.arguments ?? [];
  const args = Object.fromEntries(
    Object.entries(request.arguments)
      .map(([key, value]) => [key, value.trim()] as const)
      .filter(([key, value]) => value !== "" && declared.some((a) => a.name === key)),
  );
  const missing = declared.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length > 0) {
    throw new ValidationError(
      `Fill in ${missing.join(", ")}.`,
      Object.fromEntries(missing.map((m) => [m, ["Required."]])),
    );
  }
  const result = await mcpUseCases(db).getPrompt(ctx, {
    integrationId: prompt.integrationId,
    name: prompt.name,
    arguments: args,
  });
  return result.messages.map((message) => ({
    id: randomUUID(),
    role: message.role,
    parts: [partOf(message.content)],
  }));
}
