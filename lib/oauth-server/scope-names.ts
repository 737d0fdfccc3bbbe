import type { Database } from "@/db/client";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { orgCatalog } from "@/lib/tools/catalog-cache";
import type { OAuthScopeNames } from "./scopes";

/** The organization's integration slugs and capability names, for OAuth scopes (from the cached catalog). */
export async function scopeNamesOf(db: Database, orgId: string): Promise<OAuthScopeNames> {
  const catalog = await orgCatalog(db, orgId);
  return {
    integrations: catalog.integrations.map(({ id, slug }) => ({ id, slug })),
    capabilities: catalog.capabilities.map(({ id, namespace, action }) => ({
      id,
      name: capabilityToolName(namespace, action),
    })),
  };
}
