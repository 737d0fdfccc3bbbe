import { plural } from "@/lib/plural";

type Day = { day: string; calls: number; errors: number };

/** The smallest round number (1, 2 or 5 times a power of ten, times 4) at or above the busiest day. */
function axisMax(busiest: number): number {
  const step = Math.max(1, busiest / 4);
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= step) ?? step;
  return Math.ceil(nice) * 4;
}

/**
 * Tool calls per day, successes and errors stacked, drawn with plain boxes on the server: no chart library to
 * render or ship, and it follows the theme's colours and the page's width.
 */
export function CallsChart({ daily }: { daily: Day[] }) {
  const total = daily.reduce((sum, d) => sum + d.calls, 0);
  const failed = daily.reduce((sum, d) => sum + d.errors, 0);
  const max = axisMax(Math.max(0, ...daily.map((d) => d.calls)));
  const ticks = [4, 3, 2, 1, 0].map((quarter) => (max * quarter) / 4);
  // About eight dates under the axis, whatever the range.
  const labelEvery = Math.max(1, Math.ceil(daily.length / 8));
  const share = (value: number) => `${(value / max) * 100}%`;
  return (
    <figure
      className="grid gap-2"
      role="img"
      aria-label={`Tool calls per day: ${total} in all, ${failed} failed, over ${plural(daily.length, "day")}.`}
    >
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1">
        <div className="flex h-52 flex-col justify-between text-right text-[11px] leading-none text-muted-foreground tabular-nums">
          {ticks.map((tick) => (
            <span key={tick}>{tick}</span>
          ))}
        </div>
        <div className="relative flex h-52 items-end gap-px border-b border-l border-border">
          {ticks.slice(0, -1).map((tick) => (
            <div
              key={tick}
              className="pointer-events-none absolute inset-x-0 border-t border-dashed border-border"
              style={{ bottom: share(tick) }}
            />
          ))}
          {daily.map((d) => (
            <div
              key={d.day}
              className="relative flex h-full min-w-0 flex-1 flex-col justify-end"
              title={`${d.day}: ${plural(d.calls, "call")}, ${d.errors} failed`}
            >
              <div className="bg-destructive" style={{ height: share(d.errors) }} />
              <div className="bg-primary" style={{ height: share(d.calls - d.errors) }} />
            </div>
          ))}
        </div>
        <span />
        <div className="flex gap-px overflow-hidden text-[11px] text-muted-foreground">
          {daily.map((d, index) => (
            <span key={d.day} className="min-w-0 flex-1 overflow-visible whitespace-nowrap">
              {index % labelEvery === 0 ? d.day.slice(5) : ""}
            </span>
          ))}
        </div>
      </div>
      <figcaption className="flex justify-center gap-4 text-xs text-muted-foreground">
        <span className="flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-sm bg-primary" /> Succeeded
        </span>
        <span className="flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-sm bg-destructive" /> Failed
        </span>
      </figcaption>
    </figure>
  );
}
