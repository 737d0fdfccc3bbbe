import { safeValidateUIMessages, type UIMessage } from "ai";
import { ValidationError } from "@/lib/errors";
import { fileAttachmentSchema } from "./file-attachment-schema";
import { type ConversationBranches, type MessageTree, pathTo } from "./message-tree";
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

/** The stored message a turn branches from: it must be one of this conversation's, and of the role named. */
function branchPoint(tree: MessageTree, id: string, role: "user" | "assistant") {
  const node = tree.byId.get(id);
  if (!node) throw new ValidationError("No message of this conversation has that id.");
  if (node.message.role !== role)
    throw new ValidationError(
      role === "user"
        ? "Only your own messages can be edited; regenerate an answer instead."
        : "Only an answer can be regenerated; edit your message instead.",
    );
  return node;
}

/**
 * The conversation the model answers: the branch the request names, from the stored tree, with the request
 * applied (a new user message, possibly a new version of an earlier one; the user's approvals; or an answer
 * set aside to give it again as a new version), validated as UI messages.
 */
export async function historyForTurn(
  { tree, shown }: Pick<ConversationBranches, "tree" | "shown">,
  request: ChatTurnRequest,
): Promise<UIMessage[]> {
  let messages: UIMessage[];
  const last = shown.at(-1);
  if (request.message) {
    if (tree.byId.has(request.message.id))
      throw new ValidationError("That message is already in the conversation.");
    // An edit is a sibling of the message it replaces: the history is what came before that message.
    const before = request.edit ? pathTo(tree, branchPoint(tree, request.edit, "user").parentId) : shown;
    messages = [...before, request.message as UIMessage];
  } else if (request.approvals) {
    if (last?.role !== "assistant")
      throw new ValidationError("No tool call of this conversation waits for that approval.");
    messages = [...shown.slice(0, -1), answer(last, request.approvals)];
  } else {
    if (typeof request.regenerate === "string")
      messages = pathTo(tree, branchPoint(tree, request.regenerate, "assistant").parentId);
    else messages = last?.role === "assistant" ? shown.slice(0, -1) : shown;
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
