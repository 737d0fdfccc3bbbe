import type { Tool } from "ai";
import type { ConversationCapabilities } from "./conversation-start";

/** What the user and the agent decided about a conversation's tools. */
export interface ConversationControls {
  disabledIntegrationIds: string[];
  disabledTools: string[];
  requireApproval: boolean;
  approvedTools: string[];
}

/**
 * The tools the model may call in this conversation: without the integrations and tools the user switched off,
 * and, when the agent asks for approval, waiting for the user on every tool not allowed for the conversation.
 */
export function applyConversationControls(
  capabilities: ConversationCapabilities,
  controls: ConversationControls,
): ConversationCapabilities {
  const offIntegrations = new Set(controls.disabledIntegrationIds);
  const offTools = new Set(controls.disabledTools);
  const approved = new Set(controls.approvedTools);
  const tools: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(capabilities.tools)) {
    const origin = capabilities.mcpToolOrigins[name];
    if (offTools.has(name) || (origin && offIntegrations.has(origin.integrationId))) continue;
    tools[name] = controls.requireApproval && !approved.has(name) ? { ...tool, needsApproval: true } : tool;
  }
  const visible = <T extends { integrationId: string }>(items: T[]) =>
    items.filter((item) => !offIntegrations.has(item.integrationId));
  return {
    ...capabilities,
    tools,
    resources: visible(capabilities.resources),
    prompts: visible(capabilities.prompts),
  };
}
