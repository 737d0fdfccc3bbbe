import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolExecutionResult } from "@/lib/mcp/types";

/** What the model reads of a tool's result: its text, within a budget. */
export type ModelToolOutput = { type: "text" | "error-text"; value: string };

function kilobytes(base64: string): string {
  return `${Math.max(1, Math.round((base64.length * 3) / 4 / 1024))} KB`;
}

/** One MCP content item as text: images and audio become a short note, since the UI shows them instead. */
function textOfContent(item: ContentBlock): string {
  switch (item.type) {
    case "text":
      return item.text;
    case "image":
    case "audio":
      return `[${item.type}: ${item.mimeType || "unknown type"}, ${kilobytes(item.data)}; shown to the user]`;
    case "resource":
      return "text" in item.resource
        ? `Resource ${item.resource.uri}:\n${item.resource.text}`
        : `[resource ${item.resource.uri}: binary content]`;
    case "resource_link":
      return `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ""}]`;
    default:
      return JSON.stringify(item);
  }
}

/** A tool result in MCP's shape: the catalog's, or a call's that never reached its tool (no content at all). */
function isMcpResult(output: unknown): output is Partial<ToolExecutionResult> {
  return typeof output === "object" && output !== null && ("content" in output || "isError" in output);
}

/** Cuts text beyond the budget, with a marker that says how much is missing and that the user sees it all. */
export function withinBudget(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const rest = text.length - maxChars;
  return `${text.slice(0, maxChars)}\n[… truncated: ${rest.toLocaleString("en")} more characters. The full result is shown to the user.]`;
}

/**
 * A tool's result as the model receives it: MCP content as text (images as notes), structured results as JSON,
 * errors as error text, each cut to the budget. The UI keeps the whole result.
 */
export function toolOutputForModel(output: unknown, maxChars: number): ModelToolOutput {
  if (!isMcpResult(output))
    return { type: "text", value: withinBudget(JSON.stringify(output ?? null), maxChars) };
  const content = Array.isArray(output.content) ? output.content : [];
  const text = content.length
    ? content.map(textOfContent).join("\n")
    : output.structuredContent !== undefined
      ? JSON.stringify(output.structuredContent)
      : "";
  if (output.isError) {
    const message =
      output.errorMessage && !text.includes(output.errorMessage) ? `${output.errorMessage}\n${text}` : text;
    return { type: "error-text", value: withinBudget(message.trim() || "The tool failed.", maxChars) };
  }
  return { type: "text", value: withinBudget(text, maxChars) };
}
