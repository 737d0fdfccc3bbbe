import type { ModelMessage, Tool } from "ai";
import type { ConversationFeatures } from "./conversation-start";
import { asksBeforeRunning } from "./tool-approval";
import type { ToolApprovalPolicy } from "./tool-approval-schema";

/** What the user and the agent decided about a conversation's tools. */
export interface ConversationControls {
  disabledIntegrationIds: string[];
  disabledTools: string[];
  toolApproval: ToolApprovalPolicy;
  approvedTools: string[];
}

function wasAsked(toolCallId: string, messages: ModelMessage[]): boolean {
  return messages.some(
    (message) =>
      message.role === "assistant" &&
      Array.isArray(message.content) &&
      message.content.some((part) => part.type === "tool-approval-request" && part.toolCallId === toolCallId),
  );
}

/**
 * The tools the model may call in this conversation: without the integrations and tools the user switched off,
 * and, for each tool the agent's approval policy asks about, waiting for the user unless allowed for the
 * conversation.
 */
export function applyConversationControls(
  features: ConversationFeatures,
  controls: ConversationControls,
): ConversationFeatures {
  const offIntegrations = new Set(controls.disabledIntegrationIds);
  const offTools = new Set(controls.disabledTools);
  const approved = new Set(controls.approvedTools);
  const tools: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(features.tools)) {
    const origin = features.toolOrigins[name];
    if (offTools.has(name) || (origin?.integrationId && offIntegrations.has(origin.integrationId))) continue;
    if (!asksBeforeRunning(controls.toolApproval, origin?.annotations)) tools[name] = tool;
    else if (!approved.has(name)) tools[name] = { ...tool, needsApproval: true };
    // Allowed for the conversation: no new questions, but a call already asked about keeps its approval valid.
    else
      tools[name] = {
        ...tool,
        needsApproval: (_input, { toolCallId, messages }) => wasAsked(toolCallId, messages),
      };
  }
  const visible = <T extends { integrationId: string }>(items: T[]) =>
    items.filter((item) => !offIntegrations.has(item.integrationId));
  return {
    ...features,
    tools,
    resources: visible(features.resources),
    prompts: visible(features.prompts),
  };
}
