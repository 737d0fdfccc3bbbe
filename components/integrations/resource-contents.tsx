import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { LongText } from "@/components/ui/long-text";

type Content = ReadResourceResult["contents"][number];

/** One content of a resource as a person reads it: text, an image, or a file to download. */
function Contents({ content }: { content: Content }) {
  const mimeType = content.mimeType ?? "application/octet-stream";
  if ("text" in content && typeof content.text === "string")
    return <LongText text={content.text} className="text-sm" />;
  if ("blob" in content && typeof content.blob === "string") {
    const url = `data:${mimeType};base64,${content.blob}`;
    if (mimeType.startsWith("image/"))
      // biome-ignore lint/performance/noImgElement: a data URL from the server, not an optimizable asset
      return <img alt={`Resource ${content.uri}`} className="max-h-64 rounded border" src={url} />;
    const name = content.uri.split("/").filter(Boolean).pop() ?? "resource";
    return (
      <a href={url} download={name} className="text-sm text-primary underline">
        Download {name} ({mimeType}, {Math.round((content.blob.length * 3) / 4).toLocaleString("en")} bytes)
      </a>
    );
  }
  return <LongText text={JSON.stringify(content, null, 2)} />;
}

/** What a resources/read answered: each content under its URI and type. */
export function ResourceContents({ result }: { result: ReadResourceResult }) {
  return (
    <div className="grid min-w-0 gap-2" data-testid="resource-preview">
      {result.contents.map((content) => (
        <div key={content.uri} className="grid gap-1 rounded-md border p-2">
          <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
            <code>{content.uri}</code> · {content.mimeType ?? "no type given"}
          </p>
          <Contents content={content} />
        </div>
      ))}
    </div>
  );
}
