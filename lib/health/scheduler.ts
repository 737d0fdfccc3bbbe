import { getDatabase } from "@/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { processWide } from "@/lib/process-wide.mjs";
import { runHealthRound } from "./health-round";

const started = () => processWide("healthTimer", (): { timer?: NodeJS.Timeout } => ({}));

/** Starts the background health check of this server process (once), unless HEALTH_CHECK_INTERVAL_MS is 0. */
export function startHealthChecks() {
  const intervalMs = getEnv().HEALTH_CHECK_INTERVAL_MS;
  const holder = started();
  if (intervalMs === 0 || holder.timer) return;
  const tick = () =>
    runHealthRound(getDatabase(), { intervalMs }).catch((error: unknown) =>
      logger.warn("health round failed", { err: error }),
    );
  // The first round waits a little, so starting the server stays quick.
  setTimeout(tick, Math.min(30_000, intervalMs)).unref();
  holder.timer = setInterval(tick, intervalMs);
  holder.timer.unref();
}
