/** A server's report of how far a running call is: a bar when it says how far there is to go, its words either way. */
export function ProgressReport({
  label,
  progress,
  total,
  message,
  testId = "tool-progress",
}: {
  /** What is running, for the bar's accessible name. */
  label: string;
  progress: number;
  total?: number;
  message?: string;
  testId?: string;
}) {
  const done = total ? Math.min(progress, total) : progress;
  const amount = total ? `${done} of ${total}` : `${progress} so far`;
  return (
    <div className="mt-2 grid gap-1" data-testid={testId}>
      {total ? (
        <progress
          className="h-1.5 w-full overflow-hidden rounded-full accent-primary"
          value={done}
          max={total}
          aria-label={`Progress of ${label}`}
        />
      ) : null}
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {message ? `${message} · ${amount}` : amount}
      </p>
    </div>
  );
}
