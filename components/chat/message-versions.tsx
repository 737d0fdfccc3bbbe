"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";

/** `< 2/3 >`: which version of a message is shown, and buttons to show the one before or after it. */
export function MessageVersions({
  ids,
  current,
  disabled,
  onShow,
}: {
  ids: string[];
  current: string;
  disabled: boolean;
  onShow: (id: string) => void;
}) {
  const index = ids.indexOf(current);
  if (index < 0 || ids.length < 2) return null;
  const previous = ids[index - 1];
  const next = ids[index + 1];
  return (
    <div className="flex items-center text-xs text-muted-foreground" data-testid="message-versions">
      <Button
        variant="ghost"
        size="sm"
        className="h-7 px-1.5"
        aria-label="Previous version"
        title="Previous version"
        disabled={disabled || !previous}
        onClick={() => previous && onShow(previous)}
      >
        <ChevronLeft className="h-4 w-4" aria-hidden />
      </Button>
      <span className="tabular-nums" aria-hidden>
        {index + 1}/{ids.length}
      </span>
      <span className="sr-only">{`Version ${index + 1} of ${ids.length}`}</span>
      <Button
        variant="ghost"
        size="sm"
        className="h-7 px-1.5"
        aria-label="Next version"
        title="Next version"
        disabled={disabled || !next}
        onClick={() => next && onShow(next)}
      >
        <ChevronRight className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  );
}
