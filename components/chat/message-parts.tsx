import type { UIMessage } from "ai";
import { FileText } from "lucide-react";
import type { ReactNode } from "react";
import { ToolResult } from "@/components/integrations/tool-result";
import { LongText } from "@/components/ui/long-text";
import { ProgressReport } from "@/components/ui/progress-report";
import type { ToolProgress } from "@/lib/chat/tool-relay-schema";
import { cn } from "@/lib/cn";
import type { ToolResult as ToolResultData } from "@/lib/tools/types";
import { Markdown } from "./markdown";

type ToolPart = {
  type: string;
  toolName?: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
};

function isToolPart(part: UIMessage["parts"][number]): part is UIMessage["parts"][number] & ToolPart {
  return part.type === "dynamic-tool" || part.type.startsWith("tool-");
}

/** A tool result in MCP's shape (content items, images included), as opposed to a plain value. */
function isToolResult(output: unknown): output is ToolResultData {
  return (
    typeof output === "object" && output !== null && "content" in output && Array.isArray(output.content)
  );
}

function failed(part: ToolPart): boolean {
  if (part.state === "output-error") return true;
  return (
    typeof part.output === "object" &&
    part.output !== null &&
    (part.output as { isError?: unknown }).isError === true
  );
}

function statusOf(part: ToolPart): string {
  if (part.state === "approval-requested") return "waiting for approval";
  if (part.state === "output-denied" || part.approval?.approved === false) return "denied";
  if (part.state === "output-available" || part.state === "output-error")
    return failed(part) ? "failed" : "done";
  return "running…";
}

/**
 * A message's text, the resources attached to it, why its turn failed, and each tool call with its arguments and result
 * (collapsible), errors marked; a call waiting for approval shows `renderApproval` and stays open.
 */
export function MessageParts({
  message,
  progressOf,
  renderQuestion,
  renderApproval,
  renderTurnError,
  renderFile,
}: {
  message: UIMessage;
  /** What the tool's server last said of a running call's progress. */
  progressOf?: (toolCallId: string) => ToolProgress | undefined;
  /** A question the tool's server asks while the call waits, if there is one. */
  renderQuestion?: (toolCallId: string) => ReactNode;
  renderApproval?: (toolName: string, approvalId: string) => ReactNode;
  /** How a turn that failed shows its reason (with a way to retry). */
  renderTurnError?: (reason: string) => ReactNode;
  /** How a file attached to the message shows (a thumbnail, a chip). */
  renderFile?: (data: unknown) => ReactNode;
}) {
  return (
    <>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === "text") {
          return message.role === "assistant" ? (
            <Markdown key={key} text={part.text} />
          ) : (
            <p key={key} className="whitespace-pre-wrap text-sm leading-relaxed [overflow-wrap:anywhere]">
              {part.text}
            </p>
          );
        }
        if (part.type === "data-turn-error") {
          const { message: reason } = part.data as { message?: string };
          return renderTurnError ? (
            <div key={key}>{renderTurnError(reason ?? "The model could not answer.")}</div>
          ) : null;
        }
        if (part.type === "data-file") return <div key={key}>{renderFile?.(part.data)}</div>;
        if (part.type === "data-resource") {
          const data = part.data as { name?: string; uri?: string };
          return (
            <p
              key={key}
              className="flex min-w-0 items-center gap-1.5 text-xs opacity-90 [overflow-wrap:anywhere]"
              data-testid="message-attachment"
            >
              <FileText className="h-3 w-3" aria-hidden /> {data.name ?? data.uri ?? "Resource"}
            </p>
          );
        }
        if (isToolPart(part)) {
          const name = part.toolName ?? part.type.replace(/^tool-/, "");
          const done = part.state === "output-available" || part.state === "output-error";
          const waiting = part.state === "approval-requested";
          const status = statusOf(part);
          const progress = done ? undefined : progressOf?.(part.toolCallId);
          const question = done ? null : renderQuestion?.(part.toolCallId);
          return (
            <details
              key={key}
              open={waiting || Boolean(question) || undefined}
              className={cn(
                "min-w-0 rounded-md border px-3 py-2 text-sm",
                (failed(part) || status === "denied") && "border-destructive/50",
              )}
              data-testid="tool-call"
            >
              <summary className="cursor-pointer [overflow-wrap:anywhere]">
                <code className="font-medium">{name}</code>{" "}
                <span
                  className={cn(
                    "text-xs",
                    failed(part) || status === "denied" ? "text-destructive" : "text-muted-foreground",
                  )}
                  data-testid="tool-status"
                >
                  {status}
                </span>
                {/* In the summary, so it shows while the call is folded. */}
                {progress ? <ProgressReport label={name} {...progress} /> : null}
              </summary>
              {question}
              {waiting && part.approval && renderApproval ? renderApproval(name, part.approval.id) : null}
              <p className="mt-2 text-xs text-muted-foreground">Arguments</p>
              <LongText text={JSON.stringify(part.input ?? {}, null, 2)} />
              {done ? (
                <>
                  <p className="mt-2 text-xs text-muted-foreground">Result</p>
                  <div data-testid="tool-output">
                    {part.errorText ? (
                      <LongText text={part.errorText} />
                    ) : isToolResult(part.output) ? (
                      <ToolResult result={part.output} />
                    ) : (
                      <LongText text={JSON.stringify(part.output, null, 2)} />
                    )}
                  </div>
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
