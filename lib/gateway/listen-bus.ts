import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";
import { onChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";
import { gatewayResourceUri } from "./resource-names";
import { LISTEN_EVENTS_CHANNEL, type ListenEvent, listenEventSchema } from "./sessions/listen-events";

interface Listener {
  org: string;
  endpoint: string;
  deliver(event: ServerEvent): void;
}

// Per database handle, as an instance's memory is.
const listeners = new WeakMap<Database, Set<Listener>>();
const listening = new WeakMap<Database, Promise<unknown>>();

/** What one change means on one endpoint: the gateway hears every change, a pass-through its integration's. */
function eventsFor(endpoint: string, change: ListenEvent): ServerEvent[] {
  const passThrough = change.integration && endpoint === `integrations/${change.integration}`;
  if (endpoint !== "gateway" && !passThrough) return [];
  const events: ServerEvent[] = (change.lists ?? []).map((list) => ({
    kind: `${list}_list_changed` as "tools_list_changed",
  }));
  if (change.resource && change.integration)
    events.push({
      kind: "resource_updated",
      uri: passThrough ? change.resource : gatewayResourceUri(change.integration, change.resource),
    });
  return events;
}

// After the database connection that listens was lost and is back, any list may have changed meanwhile.
const anything = (org: string): ListenEvent => ({ org, lists: ["tools", "resources", "prompts"] });

function hear(db: Database, payload: string) {
  if (payload === "*") {
    for (const listener of listeners.get(db) ?? [])
      for (const event of eventsFor("gateway", anything(listener.org))) listener.deliver(event);
    return;
  }
  let change: ListenEvent;
  try {
    change = listenEventSchema.parse(JSON.parse(payload));
  } catch (error) {
    logger.warn("change for listeners not read", { err: error });
    return;
  }
  for (const listener of listeners.get(db) ?? [])
    if (listener.org === change.org)
      for (const event of eventsFor(listener.endpoint, change)) listener.deliver(event);
}

/**
 * The bus a 2026-07-28 client's listen stream hears changes on: its organization's, on its endpoint, announced on
 * any instance (lists changed, a resource updated). The SDK's handler acknowledges the stream, filters what the
 * client asked for, and writes it. Resolves once this instance listens, so nothing announced after is missed.
 */
export async function listenBus(db: Database, org: string, endpoint: string): Promise<ServerEventBus> {
  let started = listening.get(db);
  if (!started) {
    started = onChange(db, LISTEN_EVENTS_CHANNEL, (payload) => hear(db, payload)).catch((error: unknown) => {
      listening.delete(db);
      throw error;
    });
    listening.set(db, started);
  }
  await started;
  let registered = listeners.get(db);
  if (!registered) {
    registered = new Set();
    listeners.set(db, registered);
  }
  const own = registered;
  return {
    // Changes are announced by the modules that make them (list-changes.ts, resource-updates.ts), not here.
    publish() {},
    subscribe(deliver) {
      const listener = { org, endpoint, deliver };
      own.add(listener);
      return () => own.delete(listener);
    },
  };
}
