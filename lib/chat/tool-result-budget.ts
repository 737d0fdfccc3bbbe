/** What the model reads of a tool's result: its text, within a budget. */
export type ModelToolOutput = { type: "text" | "error-text"; value: string };

function kilobytes(base64: string): string {
  return `${Math.max(1, Math.round((base64.length * 3) / 4 / 1024))} KB`;
}

/** One MCP content item as text: images and audio become a short note, since the UI shows them instead. */
function textOfContent(item: Record<string, unknown>): string {
  if (item.type === "text" && typeof item.text === "string") return item.text;
  if ((item.type === "image" || item.type === "audio") && typeof item.data === "string") {
    return `[${item.type}: ${String(item.mimeType ?? "unknown type")}, ${kilobytes(item.data)}; shown to the user]`;
  }
  if (item.type === "resource" && typeof item.resource === "object" && item.resource !== null) {
    const resource = item.resource as Record<string, unknown>;
    return typeof resource.text === "string"
      ? `Resource ${String(resource.uri)}:\n${resource.text}`
      : `[resource ${String(resource.uri)}: binary content]`;
  }
  if (item.type === "resource_link")
    return `[resource link: ${String(item.uri)}${item.name ? ` (${String(item.name)})` : ""}]`;
  return JSON.stringify(item);
}

function isMcpResult(
  output: unknown,
): output is { isError?: boolean; content?: unknown; errorMessage?: string; structuredContent?: unknown } {
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
  const content = Array.isArray(output.content) ? (output.content as Record<string, unknown>[]) : [];
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
