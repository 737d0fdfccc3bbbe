import { onChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { type CatalogCapability, listCatalogCapabilities } from "@/lib/capabilities/store";
import { logger } from "@/lib/logger";
import {
  type CatalogIntegration,
  findCatalogIntegration,
  listCatalogIntegrations,
} from "@/lib/mcp/repository";
import { CATALOG_CHANNEL, parseCatalogChange } from "./catalog-changes";

/**
 * What the tool catalog keeps of one organization. Never changed in place: a change makes a new one, so whatever
 * was made from the old one (its listings) goes with it.
 */
export interface OrgCatalog {
  /** Oldest first, enabled or not. */
  readonly integrations: readonly CatalogIntegration[];
  /** By name. */
  readonly capabilities: readonly CatalogCapability[];
}

// Writers publish every change; this only bounds how long a write that did not (a row changed by hand) is missed.
const SAFETY_TTL_MS = 30_000;
// Organizations kept per database; the one read longest ago goes first.
const MAX_ORGANIZATIONS = 500;

interface Kept {
  catalog: Promise<OrgCatalog>;
  loadedAt: number;
}

interface Store {
  orgs: Map<string, Kept>;
  /** Whether this process hears the catalog's changes; until it does, nothing is kept. */
  listening?: Promise<boolean>;
}

// Per database handle, like the change feed: tests with databases of their own never share a catalog.
const stores = new WeakMap<Database, Store>();

async function load(db: Database, orgId: string): Promise<OrgCatalog> {
  const [integrations, capabilities] = await Promise.all([
    listCatalogIntegrations(db, orgId),
    listCatalogCapabilities(db, orgId),
  ]);
  return { integrations, capabilities };
}

/** One integration changed: its row is read again, the rest is kept; one new or gone means reading all. */
async function withIntegration(
  db: Database,
  catalog: OrgCatalog,
  orgId: string,
  integrationId: string,
): Promise<OrgCatalog> {
  const index = catalog.integrations.findIndex((row) => row.id === integrationId);
  const row = index < 0 ? undefined : await findCatalogIntegration(db, integrationId);
  if (!row || row.organizationId !== orgId) return load(db, orgId);
  return { integrations: catalog.integrations.with(index, row), capabilities: catalog.capabilities };
}

function keep(store: Store, orgId: string, catalog: Promise<OrgCatalog>, loadedAt: number) {
  const kept = { catalog, loadedAt };
  store.orgs.delete(orgId);
  store.orgs.set(orgId, kept);
  if (store.orgs.size > MAX_ORGANIZATIONS) store.orgs.delete(store.orgs.keys().next().value as string);
  // A failed read is not kept: the next request reads again.
  catalog.catch(() => {
    if (store.orgs.get(orgId) === kept) store.orgs.delete(orgId);
  });
  return catalog;
}

function hear(db: Database, store: Store, payload: string) {
  const change = parseCatalogChange(payload);
  if (change.orgId === "*") {
    store.orgs.clear();
    return;
  }
  const kept = store.orgs.get(change.orgId);
  if (!kept) return;
  if (!("integrationId" in change) || !change.integrationId) {
    store.orgs.delete(change.orgId);
    return;
  }
  // A discovery recorded (every few minutes per integration) must not make an organization with hundreds of them
  // read all of them again. Chained after the read in progress, so the row is read after the change.
  const { integrationId } = change;
  keep(
    store,
    change.orgId,
    kept.catalog.then((catalog) => withIntegration(db, catalog, change.orgId, integrationId)),
    kept.loadedAt,
  );
}

function storeOf(db: Database): Store {
  let store = stores.get(db);
  if (!store) {
    store = { orgs: new Map() };
    stores.set(db, store);
  }
  if (!store.listening) {
    const subscribed = store;
    subscribed.listening = onChange(db, CATALOG_CHANNEL, (payload) => hear(db, subscribed, payload)).then(
      () => true,
      (error: unknown) => {
        // Nothing is kept then; the next request tries to listen again.
        logger.warn("the tool catalog cannot hear changes, so it reads them every time", { err: error });
        subscribed.listening = undefined;
        return false;
      },
    );
  }
  return store;
}

/**
 * The organization's integrations and capabilities as the catalog uses them, kept in memory until one of them
 * changes (on any instance: writers publish on the change feed) or 30 seconds have passed.
 */
export async function orgCatalog(db: Database, orgId: string): Promise<OrgCatalog> {
  const store = storeOf(db);
  const fresh = () => {
    const kept = store.orgs.get(orgId);
    return kept && Date.now() - kept.loadedAt < SAFETY_TTL_MS ? kept.catalog : undefined;
  };
  const hit = fresh();
  if (hit) return hit;
  // Listening before reading: a change published after the read cannot be missed.
  if (!(await store.listening)) return load(db, orgId);
  return fresh() ?? keep(store, orgId, load(db, orgId), Date.now());
}
