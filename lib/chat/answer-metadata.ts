import type { LanguageModelUsage, UIMessage } from "ai";
import { z } from "zod";

const tokens = z.number().int().nonnegative();

/** What is kept with an answer: the model that gave it and the tokens it reported (absent when it did not). */
export const answerMetadataSchema = z.object({
  model: z.string().max(200).optional(),
  inputTokens: tokens.optional(),
  outputTokens: tokens.optional(),
});

export type AnswerMetadata = z.infer<typeof answerMetadataSchema>;

/** A message's metadata as the answer's, or nothing when it holds none of it. */
export function answerMetadata(message: Pick<UIMessage, "metadata">): AnswerMetadata | undefined {
  const parsed = answerMetadataSchema.safeParse(message.metadata);
  return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : undefined;
}

const add = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

/** The answer's metadata once its turn ends: `earlier` is what a continued answer (after approvals) had already. */
export function finishedAnswer(
  model: string,
  usage: LanguageModelUsage,
  earlier?: AnswerMetadata,
): AnswerMetadata {
  const inputTokens = add(earlier?.inputTokens, usage.inputTokens);
  const outputTokens = add(earlier?.outputTokens, usage.outputTokens);
  return {
    model,
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
  };
}

/** The tokens of every answer of a conversation that reported them; null when none did. */
export function conversationTokens(messages: Pick<UIMessage, "metadata">[]) {
  const reported = messages.map(answerMetadata).filter((meta) => meta?.inputTokens !== undefined);
  if (reported.length === 0) return null;
  return {
    inputTokens: reported.reduce((sum, meta) => sum + (meta?.inputTokens ?? 0), 0),
    outputTokens: reported.reduce((sum, meta) => sum + (meta?.outputTokens ?? 0), 0),
  };
}
