"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
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
      <VersionStep label="Previous version" to={previous} disabled={disabled} onShow={onShow}>
        <ChevronLeft className="h-4 w-4" aria-hidden />
      </VersionStep>
      <span className="tabular-nums" aria-hidden>
        {index + 1}/{ids.length}
      </span>
      <span className="sr-only">{`Version ${index + 1} of ${ids.length}`}</span>
      <VersionStep label="Next version" to={next} disabled={disabled} onShow={onShow}>
        <ChevronRight className="h-4 w-4" aria-hidden />
      </VersionStep>
    </div>
  );
}

/** One step to the version before or after, disabled at either end. */
function VersionStep({
  label,
  to,
  disabled,
  onShow,
  children,
}: {
  label: string;
  to: string | undefined;
  disabled: boolean;
  onShow: (id: string) => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className="h-7 px-1.5"
      aria-label={label}
      title={label}
      disabled={disabled || !to}
      onClick={() => to && onShow(to)}
    >
      {children}
    </Button>
  );
}
