"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Tool calls per day, successes and errors stacked; colours follow the theme's variables. */
export function CallsChart({ daily }: { daily: { day: string; calls: number; errors: number }[] }) {
  const data = daily.map((d) => ({ day: d.day.slice(5), succeeded: d.calls - d.errors, failed: d.errors }));
  const total = daily.reduce((sum, d) => sum + d.calls, 0);
  const failed = daily.reduce((sum, d) => sum + d.errors, 0);
  return (
    <figure
      className="h-64 w-full"
      role="img"
      aria-label={`Tool calls per day: ${total} in all, ${failed} failed, over ${daily.length} days.`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="day" tick={{ fill: "var(--color-muted-foreground)", fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fill: "var(--color-muted-foreground)", fontSize: 11 }} />
          <Tooltip
            contentStyle={{
              background: "var(--color-card)",
              border: "1px solid var(--color-border)",
              fontSize: 12,
            }}
            cursor={{ fill: "var(--color-muted)" }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="succeeded" name="Succeeded" stackId="calls" fill="var(--color-primary)" />
          <Bar dataKey="failed" name="Failed" stackId="calls" fill="var(--color-destructive)" />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
