import type { Database } from "@/db/client";
import type { DiscoveredSnapshot } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { SlotQueue } from "@/lib/capabilities/sandbox-slots";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import type { CatalogIntegration } from "@/lib/mcp/repository";
import type { McpFeatures } from "@/lib/mcp/types";
import { mcpUseCases } from "@/lib/mcp/use-cases";

const STALE_AFTER_MS = 5 * 60_000;
// Discoveries under way in this process, so a burst of listings asks each server once.
const inFlight = new Map<string, Promise<McpFeatures>>();

// Per caller too: an integration whose users each connect their own account answers each of them differently.
const keyOf = (ctx: RequestContext, integrationId: string) => `${integrationId}|${ctx.userId ?? ""}`;

let listingSlots: SlotQueue | undefined;

/**
 * Discoveries that listings start wait here, at most DISCOVERY_CONCURRENCY at once: a listing that finds fifty
 * stdio integrations stale must not start fifty processes together (their handshakes would time out, and the
 * integrations be marked failing for it). One never discovered, which a listing waits for, goes first.
 */
function listingSlotsOf(): SlotQueue {
  listingSlots ??= new SlotQueue(getEnv().DISCOVERY_CONCURRENCY);
  return listingSlots;
}

/** How a discovery is started: at once, or (from a listing) in turn with the others, at this priority. */
type Start = { queued: false } | { queued: true; priority: number };

/**
 * A live discovery of one integration, shared with the same caller's requests already waiting for it (also while
 * it waits for its turn).
 */
export function discoverShared(
  db: Database,
  ctx: RequestContext,
  integrationId: string,
  start: Start = { queued: false },
) {
  const key = keyOf(ctx, integrationId);
  const running = inFlight.get(key);
  if (running) return running;
  const discover = () => mcpUseCases(db).discover(ctx, { integrationId });
  const started = (
    start.queued
      ? listingSlotsOf()
          .acquire(start.priority)
          .then((release) => discover().finally(release))
      : discover()
  ).finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}

const NEVER_DISCOVERED = 1;
const STALE = 0;

/** Resolves after `ms`, or at once when `ms` is 0; the timer never keeps the process alive. */
export function budgetElapsed(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function snapshotOf({ tools, resources, prompts }: McpFeatures): DiscoveredSnapshot {
  const bare = <T extends { integrationId: string }>({ integrationId: _id, ...rest }: T) => rest;
  return { tools: tools.map(bare), resources: resources.map(bare), prompts: prompts.map(bare) };
}

/**
 * Integrations never discovered are discovered now, waiting at most the discovery budget, so a listing right
 * after an integration was added already has its tools; one that answers later is listed from then on.
 */
export async function discoverMissing(
  db: Database,
  ctx: RequestContext,
  integrations: readonly CatalogIntegration[],
  budgetMs = getEnv().DISCOVERY_BUDGET_MS,
): Promise<readonly CatalogIntegration[]> {
  // Only those never tried: one that failed before has nothing to list, and is retried in the background.
  const missing = integrations.filter(
    (integration) => integration.enabled && !integration.discovered && !integration.lastCheckedAt,
  );
  if (missing.length === 0) return integrations;
  const found = new Map<string, DiscoveredSnapshot>();
  const discoveries = missing.map((integration) =>
    discoverShared(db, ctx, integration.id, { queued: true, priority: NEVER_DISCOVERED }).then(
      (result) => void found.set(integration.id, snapshotOf(result)),
      (error: unknown) =>
        logger.debug("inline discovery failed", { integrationId: integration.id, err: error }),
    ),
  );
  await Promise.race([Promise.all(discoveries), budgetElapsed(budgetMs)]);
  return integrations.map((integration) => {
    const discovered = found.get(integration.id);
    return discovered ? { ...integration, discovered } : integration;
  });
}

/**
 * Starts, without waiting, a fresh discovery of each enabled integration whose last one is older than a few
 * minutes (a few at a time); the listing that noticed answers from what it has, a later one sees the result.
 */
export function refreshStaleDiscoveries(
  db: Database,
  ctx: RequestContext,
  integrations: readonly CatalogIntegration[],
  now = Date.now(),
) {
  for (const integration of integrations) {
    if (!integration.enabled || inFlight.has(keyOf(ctx, integration.id))) continue;
    const checked = integration.lastCheckedAt?.getTime() ?? 0;
    if (now - checked < STALE_AFTER_MS) continue;
    discoverShared(db, ctx, integration.id, { queued: true, priority: STALE }).catch((error: unknown) =>
      logger.debug("background discovery failed", { integrationId: integration.id, err: error }),
    );
  }
}
