import type { Database } from "@/db/client";
import type { Agent } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";
import { builtinTools } from "@/lib/tools/builtin";
import type { AgentFormValues } from "./agent-form";

/** What the agent form needs besides the agent: the organization's integrations, the built-ins, the default model. */
export async function agentFormOptions(db: Database, ctx: RequestContext) {
  const integrations = await listIntegrationsForOrg(db, ctx.orgId);
  return {
    integrations: integrations.map(({ id, name, enabled }) => ({ id, name, enabled })),
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
        builtinTools: agent.builtinTools,
        requireToolApproval: agent.requireToolApproval,
      }
    : {
        id: null,
        name: "",
        instructions: "",
        model: "",
        mcpIntegrationIds: null,
        builtinTools: builtinTools.map((tool) => tool.name),
        requireToolApproval: false,
      };
}
