import type { Database } from "@/db/client";
import type { Agent } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { capabilityToolName } from "@/lib/capabilities/names";
import { listCapabilities } from "@/lib/capabilities/store";
import { getEnv } from "@/lib/env";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";
import { builtinTools } from "@/lib/tools/builtin";
import type { AgentFormValues } from "./agent-form";

/**
 * What the agent form needs besides the agent: the organization's integrations and capabilities, the built-ins,
 * the default model.
 */
export async function agentFormOptions(db: Database, ctx: RequestContext) {
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
    builtins: builtinTools.map(({ name, description }) => ({ name, description })),
    defaultModel: getEnv().CHAT_MODEL,
  };
}

export function agentFormValues(agent: Agent | null): AgentFormValues {
  return agent
    ? {
        id: agent.id,
        name: agent.name,
        instructions: agent.instructions,
        model: agent.model ?? "",
        mcpIntegrationIds: agent.mcpIntegrationIds,
        capabilityIds: agent.capabilityIds,
        builtinTools: agent.builtinTools,
        requireToolApproval: agent.requireToolApproval,
      }
    : {
        id: null,
        name: "",
        instructions: "",
        model: "",
        mcpIntegrationIds: null,
        capabilityIds: null,
        builtinTools: builtinTools.map((tool) => tool.name),
        requireToolApproval: false,
      };
}
