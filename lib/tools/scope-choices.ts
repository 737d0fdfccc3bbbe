import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { listCapabilities } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";

/** The integrations and capabilities something can be limited to (an agent, an API key), as forms list them. */
export interface ScopeChoices {
  integrations: { id: string; name: string; enabled: boolean }[];
  capabilities: { id: string; name: string; description: string }[];
}

/** The organization's integrations and capabilities, with the names lists show. */
export async function scopeChoices(db: Database, ctx: RequestContext): Promise<ScopeChoices> {
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
