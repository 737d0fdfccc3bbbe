"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { cn } from "@/lib/cn";
import { Button } from "./button";

/** Copies `text` (or what `text()` gives at the click) and says so for two seconds. */
export function CopyButton({
  text,
  label = "Copy",
  className,
  compact = false,
}: {
  text: string | (() => string);
  label?: string;
  className?: string;
  /** An icon only, for a toolbar; `label` is then its accessible name. */
  compact?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant={compact ? "ghost" : "secondary"}
      size="sm"
      className={cn(compact && "h-7 px-2 text-muted-foreground", className)}
      aria-label={compact ? (copied ? "Copied" : label) : undefined}
      title={compact ? label : undefined}
      onClick={async () => {
        await navigator.clipboard?.writeText(typeof text === "function" ? text() : text);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
      {compact ? null : copied ? "Copied" : label}
    </Button>
  );
}
