"use client";

import { useCallback, useEffect, useState } from "react";
import { z } from "zod";

const KEPT_RUNS = 10;

const runSchema = z.object({
  at: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  status: z.enum(["succeeded", "tool-error", "refused", "failed"]),
  latencyMs: z.number(),
  bytes: z.number(),
});

export type PastRun = z.infer<typeof runSchema>;

/**
 * The last runs of an integration's tools by this person, kept in this browser under their own key (another
 * person signing in here sees theirs, not these).
 */
export function useRunHistory(viewerId: string, integrationId: string) {
  const key = `switchboard:runs:${viewerId}:${integrationId}`;
  const [runs, setRuns] = useState<PastRun[]>([]);
  useEffect(() => {
    try {
      const stored = z.array(runSchema).safeParse(JSON.parse(localStorage.getItem(key) ?? "[]"));
      setRuns(stored.success ? stored.data : []);
    } catch {
      setRuns([]);
    }
  }, [key]);
  const add = useCallback(
    (run: PastRun) =>
      setRuns((previous) => {
        const next = [run, ...previous].slice(0, KEPT_RUNS);
        try {
          localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Storage full or off: the history lasts as long as the page.
        }
        return next;
      }),
    [key],
  );
  const clear = useCallback(() => {
    localStorage.removeItem(key);
    setRuns([]);
  }, [key]);
  return { runs, add, clear };
}
