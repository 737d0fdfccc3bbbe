import type { UIMessage } from "ai";

/** The approval answers a message holds: what the browser sends to continue a turn that waited for the user. */
export function approvalsOf(
  message: UIMessage | undefined,
): { id: string; approved: boolean; reason?: string }[] {
  return (message?.parts ?? []).flatMap((part) =>
    "state" in part && part.state === "approval-responded" && "approval" in part && part.approval
      ? [
          {
            id: part.approval.id,
            approved: part.approval.approved === true,
            ...(part.approval.reason ? { reason: part.approval.reason } : {}),
          },
        ]
      : [],
  );
}
