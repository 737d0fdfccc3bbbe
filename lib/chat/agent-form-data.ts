import type { Database } from "@/db/client";
import type { Agent } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { builtinTools } from "@/lib/tools/builtin";
import { scopeChoices } from "@/lib/tools/scope-choices";
import { DEFAULT_TOOL_APPROVAL, type ToolApprovalPolicy } from "./tool-approval-schema";

/** The agent form's fields, as the page fills them. */
export interface AgentFormValues {
  id: string | null;
  name: string;
  instructions: string;
  model: string;
  mcpIntegrationIds: string[] | null;
  capabilityIds: string[] | null;
  builtinTools: string[];
  toolApproval: ToolApprovalPolicy;
}

/**
 * What the agent form needs besides the agent: the organization's integrations and capabilities, the built-ins,
 * the default model.
 */
export async function agentFormOptions(db: Database, ctx: RequestContext) {
  return {
    ...(await scopeChoices(db, ctx)),
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
        toolApproval: agent.toolApproval,
      }
    : {
        id: null,
        name: "",
        instructions: "",
        model: "",
        mcpIntegrationIds: null,
        capabilityIds: null,
        builtinTools: builtinTools.map((tool) => tool.name),
        toolApproval: DEFAULT_TOOL_APPROVAL,
      };
}
