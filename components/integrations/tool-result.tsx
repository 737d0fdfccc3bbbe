import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { Alert } from "@/components/ui/alert";
import type { ToolResult as ToolResultData } from "@/lib/tools/types";

function Part({ part }: { part: ContentBlock }) {
  if (part.type === "text")
    return (
      <pre className="overflow-x-auto whitespace-pre-wrap rounded bg-muted p-3 text-sm">{part.text}</pre>
    );
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
        <p>
          Resource <code>{resource.uri}</code>
        </p>
        {"text" in resource ? <pre className="mt-2 whitespace-pre-wrap text-xs">{resource.text}</pre> : null}
      </div>
    );
  }
  return <pre className="overflow-x-auto rounded bg-muted p-3 text-xs">{JSON.stringify(part, null, 2)}</pre>;
}

/** A tool's result as a person reads it: text, images, resources and structured data, or the error. */
export function ToolResult({ result }: { result: ToolResultData }) {
  return (
    <div className="grid gap-2" data-testid="tool-result">
      {result.isError ? <Alert>{result.errorMessage ?? "The tool failed."}</Alert> : null}
      {result.content?.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: content parts have no identity of their own
        <Part key={index} part={part} />
      ))}
      {result.structuredContent ? (
        <pre className="overflow-x-auto rounded bg-muted p-3 text-xs">
          {JSON.stringify(result.structuredContent, null, 2)}
        </pre>
      ) : null}
    </div>
  );
}
