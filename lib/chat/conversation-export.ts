import { getToolName, isToolUIPart, type UIMessage } from "ai";
import type { Conversation } from "@/db/schema";
import { answerMetadata, conversationTokens } from "./answer-metadata";
import { fileAttachmentSchema } from "./file-attachment-schema";
import { formatFileSize } from "./file-types";

/** How an attached file or resource is named in the export (its content stays in the app). */
function attachmentLine(part: { type: string; data?: unknown }): string | undefined {
  if (part.type === "data-file") {
    const file = fileAttachmentSchema.safeParse(part.data);
    return file.success
      ? `Attached file: ${file.data.name} (${file.data.mediaType}, ${formatFileSize(file.data.size)})`
      : undefined;
  }
  if (part.type === "data-resource") {
    const { name, uri } = (part.data ?? {}) as { name?: unknown; uri?: unknown };
    return typeof uri === "string"
      ? `Attached resource: ${typeof name === "string" ? name : uri} (${uri})`
      : undefined;
  }
  return undefined;
}

export const exportFormats = ["markdown", "json"] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** A file name from the conversation's title: letters, digits and dashes, never empty. */
export function exportFileName(title: string, format: ExportFormat): string {
  const stem =
    title
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .replace(/[\s_]+/g, "-")
      .slice(0, 60)
      .toLowerCase() || "conversation";
  return `${stem}.${format === "markdown" ? "md" : "json"}`;
}

const fenced = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  // A fence longer than any run of backticks inside, so the block cannot be closed early.
  const longest = Math.max(2, ...[...(text ?? "").matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}json\n${text ?? ""}\n${fence}`;
};

/** What an export of a conversation with edited or regenerated messages says about the versions left out. */
export const SHOWN_BRANCH_NOTE =
  "This is the branch shown in the conversation; other versions of its messages are not included.";

/** The conversation as Markdown: each message under its speaker, tool calls with their input and outcome. */
export function conversationMarkdown(
  conversation: Conversation,
  messages: UIMessage[],
  { otherVersions = false }: { otherVersions?: boolean } = {},
): string {
  const lines = [`# ${conversation.title}`, "", `Exported ${new Date().toISOString()}.`, ""];
  if (otherVersions) lines.push(SHOWN_BRANCH_NOTE, "");
  const tokens = conversationTokens(messages);
  if (tokens) lines.push(`Tokens: ${tokens.inputTokens} in, ${tokens.outputTokens} out.`, "");
  for (const message of messages) {
    const meta = answerMetadata(message);
    const facts = [
      meta?.model,
      meta?.inputTokens === undefined ? undefined : `${meta.inputTokens} in`,
      meta?.outputTokens === undefined ? undefined : `${meta.outputTokens} out`,
    ].filter(Boolean);
    const speaker = message.role === "user" ? "You" : message.role === "assistant" ? "Assistant" : "System";
    lines.push(`## ${speaker}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`, "");
    for (const part of message.parts) {
      if (part.type === "text") lines.push(part.text, "");
      const attached = attachmentLine(part);
      if (attached) lines.push(`_${attached}_`, "");
      if (isToolUIPart(part)) {
        lines.push(`**Tool \`${getToolName(part)}\`**`, "", "Input:", "", fenced(part.input ?? {}), "");
        if (part.state === "output-error") lines.push(`Failed: ${part.errorText}`, "");
        else if (part.state === "output-available") lines.push("Result:", "", fenced(part.output), "");
        else if (part.state === "output-denied") lines.push("Not run: the call was denied.", "");
      }
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The conversation as JSON: its title, times and the shown branch's messages (the AI SDK's UI message shape). */
export function conversationJson(
  conversation: Conversation,
  messages: UIMessage[],
  { otherVersions = false }: { otherVersions?: boolean } = {},
): string {
  return `${JSON.stringify(
    {
      id: conversation.id,
      title: conversation.title,
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
      exportedAt: new Date().toISOString(),
      tokens: conversationTokens(messages),
      ...(otherVersions ? { note: SHOWN_BRANCH_NOTE } : {}),
      messages,
    },
    null,
    2,
  )}\n`;
}
