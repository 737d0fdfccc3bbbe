import type { AnswerMetadata } from "@/lib/chat/answer-metadata";

export const formatTokens = (count: number) => count.toLocaleString("en");

/** Which model gave an answer and the tokens it reported, discreetly under the answer. */
export function AnswerFacts({ metadata }: { metadata: AnswerMetadata | undefined }) {
  if (!metadata?.model) return null;
  return (
    <span className="text-xs text-muted-foreground" data-testid="answer-facts">
      {metadata.model}
      {metadata.inputTokens !== undefined
        ? ` · ${formatTokens(metadata.inputTokens)} in · ${formatTokens(metadata.outputTokens ?? 0)} out`
        : ""}
    </span>
  );
}
