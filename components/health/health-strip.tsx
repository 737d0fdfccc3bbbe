import { cn } from "@/lib/cn";

const COLOURS = { up: "bg-success", degraded: "bg-warning", down: "bg-destructive" } as const;

/** The latest background checks of an integration, oldest to newest, each a coloured mark with its details. */
export function HealthStrip({
  checks,
}: {
  checks: { checkedAt: Date; status: "up" | "degraded" | "down"; latencyMs: number; error: string | null }[];
}) {
  if (checks.length === 0) return null;
  const ordered = [...checks].reverse();
  const latest = checks[0];
  return (
    <span
      className="inline-flex items-center gap-0.5"
      role="img"
      aria-label={`Last ${checks.length} health checks: ${checks.filter((c) => c.status === "up").length} up, ${checks.filter((c) => c.status === "degraded").length} degraded, ${checks.filter((c) => c.status === "down").length} down; latest ${latest?.status}.`}
      data-testid="health-strip"
    >
      {ordered.map((check) => (
        <span
          key={check.checkedAt.toISOString()}
          title={`${check.checkedAt.toISOString().replace("T", " ").slice(0, 16)} UTC: ${check.status}, ${check.latencyMs} ms${check.error ? ` (${check.error})` : ""}`}
          className={cn("h-3 w-1.5 rounded-sm", COLOURS[check.status])}
        />
      ))}
    </span>
  );
}
