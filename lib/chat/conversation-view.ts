import type { PromptArgument, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Agent, Conversation, ConversationDiscovery } from "@/db/schema";
import type { McpPrompt, McpResource } from "@/lib/mcp/types";
import type { ToolSource } from "@/lib/tools/types";
import type { ConversationFeatures } from "./conversation-start";
import type { ToolApprovalPolicy } from "./tool-approval-schema";

export interface ConversationToolView {
  name: string;
  description: string;
  source: ToolSource;
  /** Null for the built-in tools and capabilities. */
  integrationId: string | null;
  enabled: boolean;
  title?: string;
  /** What the tool says of itself: the approval card shows it with the reason it asks. */
  annotations?: ToolAnnotations;
}

/** What the chat UI shows about a conversation's capabilities; plain data for the browser, no secrets. */
export interface ConversationView {
  agentName: string;
  discovery: ConversationDiscovery | null;
  tools: ConversationToolView[];
  resources: Pick<McpResource, "integrationId" | "uri" | "name" | "description" | "mimeType">[];
  prompts: (Pick<McpPrompt, "integrationId" | "name" | "description"> & { arguments: PromptArgument[] })[];
  disabledIntegrationIds: string[];
  disabledTools: string[];
  toolApproval: ToolApprovalPolicy;
}

export function conversationView(
  agent: Agent,
  conversation: Conversation,
  all: ConversationFeatures,
  discovery: ConversationDiscovery | null,
): ConversationView {
  const offIntegrations = new Set(conversation.disabledIntegrationIds);
  const offTools = new Set(conversation.disabledTools);
  const on = (integrationId: string) => !offIntegrations.has(integrationId);
  return {
    agentName: agent.name,
    discovery,
    tools: Object.entries(all.tools).map(([name, tool]) => {
      const origin = all.toolOrigins[name];
      const integrationId = origin?.integrationId ?? null;
      return {
        name,
        description: tool.description ?? "",
        source: origin?.source ?? "builtin",
        integrationId,
        enabled: !offTools.has(name) && (integrationId === null || on(integrationId)),
        ...(origin?.title ? { title: origin.title } : {}),
        ...(origin?.annotations ? { annotations: origin.annotations } : {}),
      };
    }),
    resources: all.resources
      .filter((resource) => on(resource.integrationId))
      .map(({ integrationId, uri, name, description, mimeType }) => ({
        integrationId,
        uri,
        name,
        description,
        mimeType,
      })),
    prompts: all.prompts
      .filter((prompt) => on(prompt.integrationId))
      .map(({ integrationId, name, description, arguments: args }) => ({
        integrationId,
        name,
        description,
        arguments: args ?? [],
      })),
    disabledIntegrationIds: conversation.disabledIntegrationIds,
    disabledTools: conversation.disabledTools,
    toolApproval: agent.toolApproval,
  };
}
