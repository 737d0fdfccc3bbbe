import { randomUUID } from "node:crypto";
import type { UIMessage } from "ai";
import { z } from "zod";

/** Why a turn failed, kept as a `data-turn-error` part of the answer it did not finish. */
export const turnErrorSchema = z.object({ message: z.string().max(2_000) });

const isTurnError = (part: UIMessage["parts"][number]) => part.type === "data-turn-error";

/** The conversation with the failure recorded on its last answer, or on a new one if none was started. */
export function withTurnError(messages: UIMessage[], message: string): UIMessage[] {
  const part = { type: "data-turn-error" as const, data: { message } };
  const last = messages.at(-1);
  if (last?.role === "assistant")
    return [
      ...messages.slice(0, -1),
      { ...last, parts: [...last.parts.filter((p) => !isTurnError(p)), part] },
    ];
  return [...messages, { id: randomUUID(), role: "assistant", parts: [part] }];
}

/** What the model reads: an answer that holds nothing but its failure is not an answer. */
export function forModel(messages: UIMessage[]): UIMessage[] {
  return messages.filter(
    (message) =>
      message.role !== "assistant" ||
      !message.parts.every((part) => isTurnError(part) || part.type === "step-start"),
  );
}
