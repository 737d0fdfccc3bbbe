import { plural } from "@/lib/plural";
import type { Bucket } from "@/lib/usage/dashboard";

/** The smallest round number (1, 2 or 5 times a power of ten, times 4) at or above the busiest bucket. */
function axisMax(busiest: number): number {
  const step = Math.max(1, busiest / 4);
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= step) ?? step;
  return Math.ceil(nice) * 4;
}

/** Each outcome's colour, bottom to top of a bar, with its name in the legend. */
const SEGMENTS = [
  { key: "serverErrors", label: "Server errors", className: "bg-destructive" },
  { key: "toolErrors", label: "Tool error results", className: "bg-warning" },
  { key: "refused", label: "Refused before the server", className: "bg-muted-foreground" },
] as const;

const succeeded = (b: Bucket) => b.calls - b.serverErrors - b.toolErrors - b.refused;

/** A bucket's label under the axis: `14:00` for an hour, `06-30` for a day. */
const labelOf = (bucket: string, unit: "hour" | "day") =>
  unit === "hour" ? `${bucket.slice(11, 13)}:00` : bucket.slice(5);

/**
 * Tool calls per hour or per day, each outcome stacked, drawn with plain boxes on the server: no chart library to
 * render or ship, and it follows the theme's colours and the page's width.
 */
export function CallsChart({ buckets, unit }: { buckets: Bucket[]; unit: "hour" | "day" }) {
  const sum = (pick: (b: Bucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  const max = axisMax(Math.max(0, ...buckets.map((b) => b.calls)));
  const ticks = [4, 3, 2, 1, 0].map((quarter) => (max * quarter) / 4);
  // About eight labels under the axis, whatever the range.
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 8));
  const share = (value: number) => `${(value / max) * 100}%`;
  const summary = `Tool calls per ${unit}: ${sum((b) => b.calls)} in all, ${sum((b) => b.serverErrors)} server errors, ${sum((b) => b.toolErrors)} tool error results, ${sum((b) => b.refused)} refused before the server, over ${plural(buckets.length, unit)}.`;
  return (
    <figure className="grid gap-2" role="img" aria-label={summary}>
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
          {buckets.map((b) => (
            <div
              key={b.bucket}
              className="relative flex h-full min-w-0 flex-1 flex-col justify-end"
              title={`${b.bucket}: ${plural(b.calls, "call")}, ${b.serverErrors} server errors, ${b.toolErrors} tool error results, ${b.refused} refused`}
              data-testid="chart-bucket"
            >
              {[...SEGMENTS].reverse().map((segment) => (
                <div
                  key={segment.key}
                  className={segment.className}
                  style={{ height: share(b[segment.key]) }}
                />
              ))}
              <div className="bg-primary" style={{ height: share(succeeded(b)) }} />
            </div>
          ))}
        </div>
        <span />
        <div className="flex gap-px overflow-hidden text-[11px] text-muted-foreground">
          {buckets.map((b, index) => (
            <span key={b.bucket} className="min-w-0 flex-1 overflow-visible whitespace-nowrap">
              {index % labelEvery === 0 ? labelOf(b.bucket, unit) : ""}
            </span>
          ))}
        </div>
      </div>
      <figcaption className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-sm bg-primary" /> Succeeded
        </span>
        {SEGMENTS.map((segment) => (
          <span key={segment.key} className="flex items-center gap-1.5">
            <span className={`h-2.5 w-2.5 rounded-sm ${segment.className}`} /> {segment.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
