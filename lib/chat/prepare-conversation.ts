import type { Database } from "@/db/client";
import type { Agent, Conversation, ConversationDiscovery } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { type Logger, logger } from "@/lib/logger";
import { McpConnectionError } from "@/lib/mcp/errors";
import { listIntegrationSummaries, listIntegrationsForOrg } from "@/lib/mcp/repository";
import { callTool, listTools } from "@/lib/tools/catalog";
import { discoverShared } from "@/lib/tools/refresh-discoveries";
import type { ToolScope } from "@/lib/tools/scope";
import { ensureDefaultAgent, getAgent } from "./agents";
import { applyConversationControls } from "./conversation-controls";
import {
  type ConversationFeatures,
  type DiscoveryProgress,
  discoverForConversation,
  fromSnapshot,
  type IntegrationInfo,
  type LateDiscovery,
} from "./conversation-start";
import { getConversation, saveDiscovery, settleLateDiscovery } from "./conversations";

// Rebuilding tools from the stored snapshot is not a discovery: its known failures are not news each turn.
function quietly(log: Logger): Logger {
  return { ...log, info: log.debug, warn: log.debug };
}

async function integrationIdsOf(db: Database, ctx: UserContext, agent: Agent): Promise<string[]> {
  if (agent.mcpIntegrationIds) return agent.mcpIntegrationIds;
  return (await listIntegrationsForOrg(db, ctx.orgId)).filter((i) => i.enabled).map((i) => i.id);
}

async function integrationInfo(db: Database, ctx: UserContext, ids: string[]) {
  if (ids.length === 0) return new Map<string, IntegrationInfo & { enabled: boolean }>();
  const rows = await listIntegrationSummaries(db, ctx.orgId, ids);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Each late discovery, once it settles, updates the conversation's record: its tools join the next turn. */
function followLate(
  db: Database,
  conversationId: string,
  discovery: ConversationDiscovery,
  late: LateDiscovery[],
) {
  for (const { integrationId, outcome } of late) {
    const name = discovery.integrations.find((i) => i.integrationId === integrationId)?.name ?? "Integration";
    void outcome
      .then((status) => settleLateDiscovery(db, conversationId, discovery.discoveredAt, { ...status, name }))
      .catch((error: unknown) =>
        logger.warn("late discovery not recorded", { conversationId, integrationId, err: error }),
      );
  }
}

export interface PreparedConversation {
  agent: Agent;
  /** Everything discovered, switched on or off. */
  features: ConversationFeatures;
  /** What the model gets after the conversation's switches and approvals. */
  active: ConversationFeatures;
  discovery: ConversationDiscovery;
}

/**
 * The agent and the tools of a conversation. The first message runs discovery live (conversation start, within
 * the discovery budget) and stores what it found; later messages rebuild the same tools from the integrations'
 * stored snapshots, so the servers are not asked again, and an integration that failed at start stays out until
 * the user refreshes. Every tool is called through the tool catalog, within the agent's and the
 * conversation's scope.
 */
/** Who watches a live conversation start: told which integrations it asks, then as each one settles. */
export interface StartProgress {
  started: (integrations: { integrationId: string; name: string }[]) => void;
  settled: (event: DiscoveryProgress) => void;
}

/** The conversation's agent, or the organization's default agent when its own was deleted. */
export async function conversationAgent(db: Database, ctx: UserContext, conversation: Conversation) {
  const agent = conversation.agentId ? await getAgent(db, ctx, conversation.agentId).catch(() => null) : null;
  return agent ?? (await ensureDefaultAgent(db, ctx.orgId));
}

export async function prepareConversation(
  db: Database,
  ctx: UserContext,
  conversation: Conversation,
  options: { refresh?: boolean; progress?: StartProgress; signal?: AbortSignal } = {},
): Promise<PreparedConversation> {
  const resolvedAgent = await conversationAgent(db, ctx, conversation);
  const ids = await integrationIdsOf(db, ctx, resolvedAgent);
  const known = await integrationInfo(db, ctx, ids);
  const stored = options.refresh ? null : conversation.discovery;
  const agentScope: ToolScope = {
    builtins: resolvedAgent.builtinTools,
    capabilityIds: resolvedAgent.capabilityIds ?? undefined,
  };
  const switchedOff = new Set(conversation.disabledIntegrationIds);
  const callScope: ToolScope = {
    ...agentScope,
    integrationIds: ids.filter((id) => !switchedOff.has(id)),
    hiddenTools: conversation.disabledTools,
  };
  const liveDiscover = {
    execute: (_ctx: UserContext, { integrationId }: { integrationId: string }) =>
      discoverShared(db, ctx, integrationId),
  };
  const snapshotDiscover = {
    execute: async (_ctx: UserContext, { integrationId }: { integrationId: string }) => {
      const entry = stored?.integrations.find((i) => i.integrationId === integrationId);
      if (entry?.status === "failed") throw new McpConnectionError(integrationId, entry.message);
      if (entry?.status === "pending")
        throw new McpConnectionError(integrationId, "It has not answered yet.");
      const row = known.get(integrationId);
      if (!row?.enabled || !row.discovered)
        throw new McpConnectionError(integrationId, "Not available in this conversation.");
      return fromSnapshot(integrationId, row.discovered);
    },
  };
  const startLogger = logger.child({ component: "chat.start", conversationId: conversation.id });
  if (!stored)
    options.progress?.started(
      ids.map((id) => ({ integrationId: id, name: known.get(id)?.name ?? "Integration" })),
    );
  const ownTools = await listTools(db, ctx, { scope: { ...agentScope, integrationIds: [] } });
  const { late, ...features } = await discoverForConversation(
    {
      discover: stored ? snapshotDiscover : liveDiscover,
      ...(stored || !options.progress ? {} : { onSettled: options.progress.settled }),
      integrations: async () => known,
      call: (name, args, signal) =>
        callTool(db, ctx, name, args, { surface: "chat", scope: callScope, signal }),
      budgetMs: getEnv().DISCOVERY_BUDGET_MS,
      resultBudget: getEnv().CHAT_TOOL_RESULT_MAX_CHARS,
      logger: stored ? quietly(startLogger) : startLogger,
    },
    ctx,
    { id: resolvedAgent.id, mcpIntegrationIds: ids },
    ownTools,
  );
  let discovery = stored;
  // A refresh the user cancelled keeps the conversation's discovery as it was.
  options.signal?.throwIfAborted();
  if (!discovery) {
    discovery = {
      discoveredAt: new Date().toISOString(),
      integrations: features.integrations.map((entry) => ({
        ...entry,
        name: known.get(entry.integrationId)?.name ?? "Integration",
      })),
    };
    await saveDiscovery(db, conversation.id, discovery);
    followLate(db, conversation.id, discovery, late);
  }
  const active = applyConversationControls(features, {
    disabledIntegrationIds: conversation.disabledIntegrationIds,
    disabledTools: conversation.disabledTools,
    toolApproval: resolvedAgent.toolApproval,
    approvedTools: conversation.approvedTools,
  });
  return { agent: resolvedAgent, features, active, discovery };
}

/** A conversation of the user's, by id, with what it may use now (its tools, resources and prompts). */
export async function openConversation(db: Database, ctx: UserContext, id: string) {
  const conversation = await getConversation(db, ctx, id);
  const { active } = await prepareConversation(db, ctx, conversation);
  return { conversation, active };
}
