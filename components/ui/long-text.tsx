"use client";

import { useState } from "react";
import { cn } from "@/lib/cn";
import { Button } from "./button";

/** How much of a long text shows before "Show all". */
export const COLLAPSED_CHARS = 4_000;

const sizeOf = (chars: number) =>
  chars >= 1_000_000
    ? `${(chars / 1_000_000).toFixed(1)}M characters`
    : chars >= 10_000
      ? `${Math.round(chars / 1_000)}K characters`
      : `${chars.toLocaleString("en")} characters`;

/**
 * Preformatted text that never widens the page: long lines wrap anywhere, and text past COLLAPSED_CHARS is
 * cut until the reader asks for all of it.
 */
export function LongText({ text, className }: { text: string; className?: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > COLLAPSED_CHARS;
  return (
    <div className="grid min-w-0 justify-items-start gap-1">
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must take focus, or a keyboard cannot scroll it
        tabIndex={0}
        className={cn(
          "w-full overflow-x-auto whitespace-pre-wrap rounded bg-muted p-3 text-xs [overflow-wrap:anywhere]",
          className,
        )}
        data-testid="long-text"
      >
        {long && !expanded ? `${text.slice(0, COLLAPSED_CHARS)}…` : text}
      </pre>
      {long ? (
        <Button variant="ghost" size="sm" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? "Show less" : `Show all (${sizeOf(text.length)})`}
        </Button>
      ) : null}
    </div>
  );
}
