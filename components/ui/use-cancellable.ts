"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A long operation the user can watch and stop: `start` runs `work` with a signal, `elapsedMs` counts while it
 * runs, and `cancel` aborts the signal (the request ends, and the server stops what it started for it).
 */
export function useCancellable() {
  const controller = useRef<AbortController | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);

  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [startedAt]);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T | "cancelled"> => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setStartedAt(Date.now());
      setNow(Date.now());
      try {
        return await work(current.signal);
      } catch (error) {
        if (current.signal.aborted) return "cancelled";
        throw error;
      } finally {
        if (controller.current === current) {
          controller.current = null;
          setStartedAt(null);
        }
      }
    },
    [],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const running = startedAt !== null;
  return { start, cancel, running, elapsedMs: running ? Math.max(0, now - startedAt) : 0 };
}

/** "3 s" while something runs, for a button or a status line. */
export const elapsed = (ms: number) => `${Math.floor(ms / 1000)} s`;
