import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";
import type { McpIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";

const STALE_AFTER_MS = 5 * 60_000;
// Integrations whose rediscovery is under way in this process, so a burst of listings starts it once.
const inFlight = new Set<string>();

/**
 * Starts, without waiting, a fresh discovery of each enabled integration whose last one is older than a few
 * minutes; the listing that noticed answers from what it has, the next one sees the result.
 */
export function refreshStaleDiscoveries(
  db: Database,
  ctx: RequestContext,
  integrations: McpIntegration[],
  now = Date.now(),
) {
  for (const integration of integrations) {
    if (!integration.enabled || inFlight.has(integration.id)) continue;
    const checked = integration.lastCheckedAt?.getTime() ?? 0;
    if (now - checked < STALE_AFTER_MS) continue;
    inFlight.add(integration.id);
    mcpUseCases(db)
      .discover.execute(ctx, { integrationId: integration.id })
      .catch((error: unknown) =>
        logger.debug("background discovery failed", { integrationId: integration.id, err: error }),
      )
      .finally(() => inFlight.delete(integration.id));
  }
}
