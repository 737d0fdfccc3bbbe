import { cn } from "@/lib/cn";
import type { IntegrationStateView } from "@/lib/mcp/integrations/state-view";
import { stateLabel } from "./status-badge";

/** A moment as the pages write it, the same on the server and in any browser: "2026-11-27 10:03:12 UTC". */
export function utcMoment(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 19)} UTC`;
}

const tones = {
  healthy: "text-muted-foreground",
  degraded: "text-warning-text",
  failing: "text-destructive",
  recovering: "text-warning-text",
} as const;

/** An integration's state in one sentence: what, since when, and why ("Failing since …: connection refused."). */
export function IntegrationStateLine({
  state,
  className,
}: {
  state: IntegrationStateView;
  className?: string;
}) {
  return (
    <p className={cn("text-xs", tones[state.state], className)} data-testid="integration-state">
      {stateLabel(state.state)} since <time dateTime={state.since}>{utcMoment(state.since)}</time>
      {state.cause ? `: ${state.cause}.` : "."}
    </p>
  );
}
