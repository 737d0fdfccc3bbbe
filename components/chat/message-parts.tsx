import type { UIMessage } from "ai";
import { cn } from "@/lib/cn";

type ToolPart = {
  type: string;
  toolName?: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

function isToolPart(part: UIMessage["parts"][number]): part is UIMessage["parts"][number] & ToolPart {
  return part.type === "dynamic-tool" || part.type.startsWith("tool-");
}

function failed(part: ToolPart): boolean {
  if (part.state === "output-error") return true;
  return (
    typeof part.output === "object" &&
    part.output !== null &&
    (part.output as { isError?: unknown }).isError === true
  );
}

/** A message's text, and each tool call with its arguments and result (collapsible), errors marked. */
export function MessageParts({ message }: { message: UIMessage }) {
  return (
    <>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === "text") {
          return (
            <p key={key} className="whitespace-pre-wrap text-sm leading-relaxed">
              {part.text}
            </p>
          );
        }
        if (isToolPart(part)) {
          const name = part.toolName ?? part.type.replace(/^tool-/, "");
          const done = part.state === "output-available" || part.state === "output-error";
          return (
            <details
              key={key}
              className={cn("rounded-md border px-3 py-2 text-sm", failed(part) && "border-destructive/50")}
              data-testid="tool-call"
            >
              <summary className="cursor-pointer">
                <code className="font-medium">{name}</code>{" "}
                <span className={cn("text-xs", failed(part) ? "text-destructive" : "text-muted-foreground")}>
                  {!done ? "running…" : failed(part) ? "failed" : "done"}
                </span>
              </summary>
              <p className="mt-2 text-xs text-muted-foreground">Arguments</p>
              <pre className="overflow-x-auto rounded bg-muted p-2 text-xs">
                {JSON.stringify(part.input ?? {}, null, 2)}
              </pre>
              {done ? (
                <>
                  <p className="mt-2 text-xs text-muted-foreground">Result</p>
                  <pre className="overflow-x-auto rounded bg-muted p-2 text-xs" data-testid="tool-output">
                    {part.errorText ?? JSON.stringify(part.output, null, 2)}
                  </pre>
                </>
              ) : null}
            </details>
          );
        }
        return null;
      })}
    </>
  );
}
