"use client";

import { Loader2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/plural";
import type { StartEvent } from "./start-discovery";

type Chip = { integrationId: string; name: string } & (
  | { status: "connecting" }
  | { status: "connected"; toolCount: number; ms: number }
  | { status: "failed"; message: string; ms: number }
);

/** Conversation start as it happens: the integrations asked, from what the start reports. */
export function useStartProgress() {
  const [chips, setChips] = useState<Chip[]>([]);
  const onEvent = useCallback((event: StartEvent) => {
    if (event.type === "started")
      setChips(event.integrations.map((i) => ({ ...i, status: "connecting" as const })));
    if (event.type === "settled")
      setChips((current) =>
        current.map((chip) =>
          chip.integrationId !== event.integrationId
            ? chip
            : event.status === "connected"
              ? { ...chip, status: "connected", toolCount: event.toolCount ?? 0, ms: event.ms }
              : {
                  ...chip,
                  status: "failed",
                  message: event.message ?? "It could not be reached.",
                  ms: event.ms,
                },
        ),
      );
  }, []);
  return { chips, onEvent };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One chip per integration: connecting with the time so far, then ready with its tools, or failed and why. */
export function StartProgress({
  chips,
  label = "Connecting to the agent's integrations…",
}: {
  chips: Chip[];
  label?: string;
}) {
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  const waiting = chips.some((chip) => chip.status === "connecting");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [waiting]);
  return (
    <div className="grid gap-2" role="status" aria-live="polite" data-testid="start-progress">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        {waiting ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : null}
        {label}
      </p>
      {chips.length ? (
        <ul className="flex flex-wrap gap-2 text-xs">
          {chips.map((chip) => (
            <li
              key={chip.integrationId}
              data-testid="start-chip"
              data-status={chip.status}
              className={cn(
                "rounded-full border px-2 py-0.5 [overflow-wrap:anywhere]",
                chip.status === "connected" && "border-success/40 bg-success/10 text-success",
                chip.status === "failed" && "border-destructive/40 bg-destructive/10 text-destructive",
                chip.status === "connecting" && "bg-muted text-muted-foreground",
              )}
            >
              {chip.name}:{" "}
              {chip.status === "connecting"
                ? `connecting… ${seconds(now - startedAt)}`
                : chip.status === "connected"
                  ? `${plural(chip.toolCount, "tool")}, ready in ${seconds(chip.ms)}`
                  : `failed after ${seconds(chip.ms)}: ${chip.message}`}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
