import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Agent, type Conversation, type ConversationDiscovery, mcpIntegrations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { type Logger, logger } from "@/lib/logger";
import { McpConnectionError } from "@/lib/mcp/errors";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { recordUsage } from "@/lib/usage/record-usage";
import { ensureDefaultAgent, getAgent } from "./agents";
import { applyConversationControls } from "./conversation-controls";
import { type ConversationCapabilities, discoverForConversation } from "./conversation-start";
import { saveDiscovery } from "./conversations";
import { nativeTools } from "./native-tools";

// Rebuilding tools from the stored snapshot is not a discovery: its known failures are not news each turn.
function quietly(log: Logger): Logger {
  return { ...log, info: log.debug, warn: log.debug };
}

async function integrationIdsOf(db: Database, ctx: UserContext, agent: Agent): Promise<string[]> {
  if (agent.mcpIntegrationIds) return agent.mcpIntegrationIds;
  return (await listIntegrationsForOrg(db, ctx.orgId)).filter((i) => i.enabled).map((i) => i.id);
}

/**
 * The agent and the tools of a conversation. The first message runs discovery live (conversation start) and
 * stores what it found; later messages rebuild the same tools from the integrations' stored snapshots, so the
 * servers are not asked again, and an integration that failed at start stays out until the user refreshes.
 * `capabilities` is everything discovered; `active` is what the model gets after the conversation's controls.
 */
export async function prepareConversation(
  db: Database,
  ctx: UserContext,
  conversation: Conversation,
  options: { refresh?: boolean } = {},
): Promise<{
  agent: Agent;
  capabilities: ConversationCapabilities;
  active: ConversationCapabilities;
  discovery: ConversationDiscovery;
}> {
  const agent = conversation.agentId ? await getAgent(db, ctx, conversation.agentId).catch(() => null) : null;
  const resolvedAgent = agent ?? (await ensureDefaultAgent(db, ctx.orgId));
  const ids = await integrationIdsOf(db, ctx, resolvedAgent);
  const { discover, execute } = mcpUseCases(db);
  const stored = options.refresh ? null : conversation.discovery;
  const snapshotDiscover = {
    execute: async (_ctx: UserContext, { integrationId }: { integrationId: string }) => {
      const entry = stored?.integrations.find((i) => i.integrationId === integrationId);
      if (entry?.status === "failed") throw new McpConnectionError(integrationId, entry.message);
      const [row] = await db
        .select()
        .from(mcpIntegrations)
        .where(and(eq(mcpIntegrations.id, integrationId), eq(mcpIntegrations.organizationId, ctx.orgId)));
      if (!row?.enabled || !row.discovered)
        throw new McpConnectionError(integrationId, "Not available in this conversation.");
      const tag = <T extends object>(items: T[]) => items.map((item) => ({ ...item, integrationId }));
      return {
        tools: tag(row.discovered.tools),
        resources: tag(row.discovered.resources),
        prompts: tag(row.discovered.prompts).map((p) => ({ ...p, arguments: p.arguments ?? [] })),
      };
    },
  };
  const names = new Map(
    ids.length
      ? (
          await db
            .select({ id: mcpIntegrations.id, name: mcpIntegrations.name, slug: mcpIntegrations.slug })
            .from(mcpIntegrations)
            .where(and(inArray(mcpIntegrations.id, ids), eq(mcpIntegrations.organizationId, ctx.orgId)))
        ).map((row) => [row.id, row])
      : [],
  );
  const startLogger = logger.child({ component: "chat.start", conversationId: conversation.id });
  const capabilities = await discoverForConversation(
    {
      discover: stored ? snapshotDiscover : discover,
      execute,
      integrationSlugs: async () => new Map([...names].map(([id, row]) => [id, row.slug])),
      logger: stored ? quietly(startLogger) : startLogger,
      recordUsage: (entry) => recordUsage(db, ctx, { ...entry, surface: "chat", source: "integration" }),
    },
    ctx,
    { id: resolvedAgent.id, mcpIntegrationIds: ids },
    nativeTools(db, ctx, resolvedAgent.builtinTools),
  );
  const discovery: ConversationDiscovery = stored ?? {
    discoveredAt: new Date().toISOString(),
    integrations: capabilities.integrations.map((entry) => ({
      ...entry,
      name: names.get(entry.integrationId)?.name ?? "Integration",
    })),
  };
  if (!stored) await saveDiscovery(db, conversation.id, discovery);
  const active = applyConversationControls(capabilities, {
    disabledIntegrationIds: conversation.disabledIntegrationIds,
    disabledTools: conversation.disabledTools,
    requireApproval: resolvedAgent.requireToolApproval,
    approvedTools: conversation.approvedTools,
  });
  return { agent: resolvedAgent, capabilities, active, discovery };
}
