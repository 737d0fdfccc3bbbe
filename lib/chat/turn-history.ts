import { safeValidateUIMessages, type UIMessage } from "ai";
import { ValidationError } from "@/lib/errors";
import { fileAttachmentSchema } from "./file-attachment-schema";
import { resourceAttachmentSchema } from "./resource-attachments";
import { turnErrorSchema } from "./turn-errors";
import type { Approval, ChatTurnRequest } from "./turn-request";

/** Marks the stored tool calls the user answered; an answer to a call that is not waiting is refused. */
function answer(message: UIMessage, approvals: Approval[]): UIMessage {
  const waiting = new Set(
    message.parts.flatMap((part) =>
      "state" in part && part.state === "approval-requested" && "approval" in part && part.approval
        ? [part.approval.id]
        : [],
    ),
  );
  const unknown = approvals.find((approval) => !waiting.has(approval.id));
  if (unknown) throw new ValidationError("No tool call of this conversation waits for that approval.");
  const byId = new Map(approvals.map((approval) => [approval.id, approval]));
  return {
    ...message,
    parts: message.parts.map((part) => {
      if (!("state" in part) || part.state !== "approval-requested" || !("approval" in part)) return part;
      const decision = part.approval && byId.get(part.approval.id);
      if (!decision) return part;
      return {
        ...part,
        state: "approval-responded",
        // The stored request keeps its signature, which the SDK checks before running an approved call.
        approval: { ...part.approval, approved: decision.approved, reason: decision.reason },
      } as UIMessage["parts"][number];
    }),
  };
}

/**
 * The conversation the model answers: the stored history with the request applied (a new user message, the
 * user's approvals, or the last answer dropped to regenerate it), validated as UI messages.
 */
export async function historyForTurn(stored: UIMessage[], request: ChatTurnRequest): Promise<UIMessage[]> {
  let messages = stored;
  const last = stored.at(-1);
  if (request.message) {
    if (stored.some((message) => message.id === request.message?.id))
      throw new ValidationError("That message is already in the conversation.");
    messages = [...stored, request.message as UIMessage];
  } else if (request.approvals) {
    if (last?.role !== "assistant")
      throw new ValidationError("No tool call of this conversation waits for that approval.");
    messages = [...stored.slice(0, -1), answer(last, request.approvals)];
  } else {
    messages = last?.role === "assistant" ? stored.slice(0, -1) : stored;
    if (messages.at(-1)?.role !== "user") throw new ValidationError("There is no message to answer.");
  }
  const validated = await safeValidateUIMessages({
    messages,
    dataSchemas: {
      resource: resourceAttachmentSchema,
      file: fileAttachmentSchema,
      "turn-error": turnErrorSchema,
    },
  });
  if (!validated.success)
    throw new ValidationError(`The conversation cannot continue: ${validated.error.message}`);
  return validated.data;
}
