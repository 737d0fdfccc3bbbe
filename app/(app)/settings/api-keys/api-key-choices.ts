import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { capabilityToolName } from "@/lib/capabilities/names";
import { listCapabilities } from "@/lib/capabilities/store";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";
import type { ApiKeyChoices } from "./api-key-limits-fields";

/** The organization's integrations and capabilities a key can be limited to, with the names lists show. */
export async function apiKeyChoices(db: Database, ctx: RequestContext): Promise<ApiKeyChoices> {
  const [integrations, capabilities] = await Promise.all([
    listIntegrationsForOrg(db, ctx.orgId),
    listCapabilities(db, ctx.orgId),
  ]);
  return {
    integrations: integrations.map(({ id, name, enabled }) => ({ id, name, enabled })),
    capabilities: capabilities.map(({ id, namespace, action, description }) => ({
      id,
      name: capabilityToolName(namespace, action),
      description,
    })),
  };
}
