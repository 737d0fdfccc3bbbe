import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { announceListChanges } from "@/lib/gateway/sessions/list-changes";

/** The change feed's channel for what the tool catalog keeps of organizations: integrations and capabilities. */
export const CATALOG_CHANNEL = "switchboard_catalog";

/** What changed: all of an organization's catalog, one of its integrations, or ("*") every organization's. */
export type CatalogChange = { orgId: "*" } | { orgId: string; integrationId?: string };

export function parseCatalogChange(payload: string): CatalogChange {
  const [orgId = "", integrationId] = payload.split(":");
  return integrationId ? { orgId, integrationId } : { orgId };
}

/**
 * Tells every instance that the organization's catalog changed: call it after every write to an integration or a
 * capability that the catalog would answer differently for. With `integrationId`, only that integration's row
 * changed (a discovery recorded, an OAuth detail learnt), and only it is read again. Inside a transaction pass it
 * as `executor`, so other instances hear it when it commits.
 */
export async function publishCatalogChange(
  db: Database,
  orgId: string,
  options: { integrationId?: string; executor?: Pick<Database, "execute"> } = {},
): Promise<void> {
  const payload = options.integrationId ? `${orgId}:${options.integrationId}` : orgId;
  await publishChange(db, CATALOG_CHANNEL, payload, options.executor);
  // An integration or capability added, changed or removed: the gateway's clients list again. Inside a
  // transaction it is not waited for, since on the embedded database it waits for the transaction to end.
  if (!options.integrationId && orgId !== "*") {
    const announced = announceListChanges(db, orgId, ["tools", "resources", "prompts"]);
    if (!options.executor) await announced;
  }
}
