import { Square } from "lucide-react";
import { Button } from "./button";
import { elapsed } from "./use-cancellable";

/** While a long operation runs: how long it has run so far, and the way to stop it. */
export function RunningFor({
  run,
  testId,
}: {
  run: { running: boolean; elapsedMs: number; cancel: () => void };
  testId: string;
}) {
  if (!run.running) return null;
  return (
    <>
      <span className="text-sm text-muted-foreground tabular-nums" role="status" data-testid={testId}>
        {elapsed(run.elapsedMs)}
      </span>
      <Button variant="secondary" onClick={run.cancel}>
        <Square className="h-4 w-4" aria-hidden /> Cancel
      </Button>
    </>
  );
}
