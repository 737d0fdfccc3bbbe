"use client";

import { Check, CheckCheck, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { ConversationToolView } from "@/lib/chat/conversation-view";
import { annotationLabels, approvalReason } from "@/lib/chat/tool-approval";
import type { ToolApprovalPolicy } from "@/lib/chat/tool-approval-schema";

export type ApprovalDecision = "once" | "always" | "deny";

/** The question an agent that asks before running tools puts to the user, for one tool call. */
export function ToolApproval({
  toolName,
  tool,
  policy,
  onDecide,
  disabled,
}: {
  toolName: string;
  /** What the conversation knows of the tool; absent until its discovery is shown. */
  tool?: Pick<ConversationToolView, "title" | "annotations">;
  policy?: ToolApprovalPolicy;
  onDecide: (decision: ApprovalDecision) => void;
  disabled?: boolean;
}) {
  const reason = policy ? approvalReason(policy, tool?.annotations) : null;
  const title = tool?.title ?? tool?.annotations?.title;
  const labels = annotationLabels(tool?.annotations);
  return (
    <fieldset
      className="mt-2 grid gap-2 rounded-md border border-warning/40 bg-warning/10 p-3"
      data-testid="tool-approval"
    >
      <legend className="sr-only">Approve {toolName}</legend>
      <p className="text-sm">
        Run <code className="font-medium">{toolName}</code>
        {title ? <> ({title})</> : null} with the arguments below?
      </p>
      {reason ? (
        <p className="text-sm" data-testid="tool-approval-reason">
          {reason}
          {labels.length > 0 ? ` Its hints: ${labels.join(", ")}.` : null}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={disabled} onClick={() => onDecide("once")}>
          <Check className="h-4 w-4" aria-hidden /> Allow once
        </Button>
        <Button size="sm" variant="secondary" disabled={disabled} onClick={() => onDecide("always")}>
          <CheckCheck className="h-4 w-4" aria-hidden /> Allow for this conversation
        </Button>
        <Button size="sm" variant="ghost" disabled={disabled} onClick={() => onDecide("deny")}>
          <X className="h-4 w-4" aria-hidden /> Deny
        </Button>
      </div>
    </fieldset>
  );
}
