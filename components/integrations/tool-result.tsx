import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { Alert } from "@/components/ui/alert";
import { LongText } from "@/components/ui/long-text";
import type { ToolResult as ToolResultData } from "@/lib/tools/types";

function Part({ part }: { part: ContentBlock }) {
  if (part.type === "text") return <LongText text={part.text} className="text-sm" />;
  if (part.type === "image") {
    return (
      // biome-ignore lint/performance/noImgElement: a data URL from the tool, not an optimizable asset
      <img
        alt="Tool result"
        className="max-h-64 rounded border"
        src={`data:${part.mimeType};base64,${part.data}`}
      />
    );
  }
  if (part.type === "resource" || part.type === "resource_link") {
    const resource = part.type === "resource" ? part.resource : part;
    return (
      <div className="rounded border p-3 text-sm">
        <p className="[overflow-wrap:anywhere]">
          Resource <code>{resource.uri}</code>
        </p>
        {"text" in resource ? <LongText text={resource.text} className="mt-2" /> : null}
      </div>
    );
  }
  return <LongText text={JSON.stringify(part, null, 2)} />;
}

/** The result's text items together, as the error message of a failed call is made from them. */
const textOf = (content: ContentBlock[]) =>
  content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();

/**
 * A tool's result as a person reads it: text, images, resources and structured data (unless shown apart, as
 * checked against the tool's output schema), or the error.
 */
export function ToolResult({
  result,
  structuredApart,
}: {
  result: ToolResultData;
  structuredApart?: boolean;
}) {
  const content = result.content ?? [];
  // A failed call's message is usually its text items: shown once, in the alert.
  const textInAlert = Boolean(
    result.isError && result.errorMessage?.trim() === textOf(content) && textOf(content),
  );
  const shown = textInAlert ? content.filter((part) => part.type !== "text") : content;
  return (
    <div className="grid min-w-0 gap-2" data-testid="tool-result">
      {result.isError ? <Alert>{result.errorMessage ?? "The tool failed."}</Alert> : null}
      {shown.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: content parts have no identity of their own
        <Part key={index} part={part} />
      ))}
      {result.structuredContent && !structuredApart ? (
        <LongText text={JSON.stringify(result.structuredContent, null, 2)} />
      ) : null}
    </div>
  );
}
