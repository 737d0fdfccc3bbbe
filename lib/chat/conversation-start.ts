import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "ai";
import type { DiscoveredSnapshot } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import type { Logger } from "@/lib/logger";
import type { McpFeatures, McpPrompt, McpResource } from "@/lib/mcp/types";
import type { DiscoverMcpFeatures } from "@/lib/mcp/use-cases/discover-mcp-features";
import { integrationToolDescriptor } from "@/lib/tools/catalog";
import { budgetElapsed } from "@/lib/tools/refresh-discoveries";
import { claimToolNames } from "@/lib/tools/tool-precedence";
import type { ToolDescriptor, ToolSource } from "@/lib/tools/types";
import { type ConversationToolCall, chatTool } from "./chat-tool";
import { fileArgumentsOf } from "./files-for-tools";

/** The part of an agent that conversation start needs. */
export interface AgentForDiscovery {
  id: string;
  mcpIntegrationIds?: string[] | null;
}

interface Counts {
  toolCount: number;
  resourceCount: number;
  promptCount: number;
}

/**
 * How each integration came into the conversation: answered (`late` when after the start budget, so it joined
 * a later turn), slow but known (its last discovery stands in), slow and unknown (left out until it answers),
 * or failed.
 */
export type IntegrationDiscoveryStatus =
  | ({ integrationId: string; status: "connected"; late?: boolean } & Counts)
  | ({ integrationId: string; status: "stale"; lastCheckedAt: string | null } & Counts)
  | { integrationId: string; status: "pending" }
  | { integrationId: string; status: "failed"; errorType: string; message: string; late?: boolean };

export interface ToolOrigin {
  source: ToolSource;
  integrationId?: string;
  /** The tool's human-readable name, when it gives one. */
  title?: string;
  /** What the tool says of itself (read-only, destructive): the agent's approval policy reads it. */
  annotations?: ToolAnnotations;
  /** Whether an argument takes a file, so the model is told the handles of the conversation's files. */
  takesFiles?: true;
}

/** What a conversation works with until it ends: discovered once, never again on each step of the tool loop. */
export interface ConversationFeatures {
  tools: Record<string, Tool>;
  /** Where each tool comes from, for the conversation's switches and for showing calls. */
  toolOrigins: Record<string, ToolOrigin>;
  resources: McpResource[];
  prompts: McpPrompt[];
  integrations: IntegrationDiscoveryStatus[];
}

/** A discovery still running when the start budget ran out, and the status it ends in. */
export interface LateDiscovery {
  integrationId: string;
  outcome: Promise<IntegrationDiscoveryStatus>;
}

/** What conversation start knows of an integration before asking it. */
export interface IntegrationInfo {
  slug: string;
  name: string;
  /** The health check's verdict: a failing integration is not waited for. */
  status: "unknown" | "connected" | "failing";
  lastCheckedAt: Date | null;
  discovered: DiscoveredSnapshot | null;
}

export interface ConversationStartDeps {
  discover: Pick<DiscoverMcpFeatures, "execute">;
  integrations: (integrationIds: string[]) => Promise<Map<string, IntegrationInfo>>;
  /** Every tool call of the conversation goes through the tool catalog. */
  call: ConversationToolCall;
  /** How long the start waits for servers that are not known to be failing. */
  budgetMs: number;
  /** Characters of a tool result the model reads; the rest is cut with a marker. */
  resultBudget: number;
  logger: Logger;
  /** Told as each integration answers or fails, for a live view of conversation start. */
  onSettled?: (event: DiscoveryProgress) => void;
}

/** One integration's discovery, settled: how it went and how long it took. */
export type DiscoveryProgress =
  | { integrationId: string; status: "connected"; toolCount: number; ms: number }
  | { integrationId: string; status: "failed"; message: string; ms: number };

function errorType(error: unknown): string {
  if (error instanceof AppError) return error.code;
  return error instanceof Error ? error.name : "Unknown";
}

function failure(integrationId: string, reason: unknown, late?: boolean): IntegrationDiscoveryStatus {
  return {
    integrationId,
    status: "failed",
    errorType: errorType(reason),
    message: reason instanceof Error ? reason.message : "Unknown error",
    ...(late ? { late } : {}),
  };
}

const counts = (found: McpFeatures): Counts => ({
  toolCount: found.tools.length,
  resourceCount: found.resources.length,
  promptCount: found.prompts.length,
});

/** A stored discovery as the discovery use case answers it, each item tagged with its integration. */
export function fromSnapshot(integrationId: string, snapshot: DiscoveredSnapshot): McpFeatures {
  const tag = <T extends object>(items: T[]) => items.map((item) => ({ ...item, integrationId }));
  return {
    tools: tag(snapshot.tools),
    resources: tag(snapshot.resources),
    prompts: tag(snapshot.prompts).map((prompt) => ({ ...prompt, arguments: prompt.arguments ?? [] })),
  };
}

/**
 * Discovers the agent's integrations once, in parallel, waiting at most the start budget; a failing or slow
 * integration is logged and reported but never blocks the conversation. MCP tools get their integration's
 * prefix and join the organization's own tools (built-ins and capabilities) under the catalog's precedence.
 */
export async function discoverForConversation(
  deps: ConversationStartDeps,
  ctx: RequestContext,
  agent: AgentForDiscovery | null,
  ownTools: ToolDescriptor[],
): Promise<ConversationFeatures & { late: LateDiscovery[] }> {
  const features: ConversationFeatures = {
    tools: {},
    toolOrigins: {},
    resources: [],
    prompts: [],
    integrations: [],
  };
  const add = (descriptor: ToolDescriptor, integrationId?: string) => {
    features.tools[descriptor.name] = chatTool(descriptor, deps.call, deps.resultBudget);
    features.toolOrigins[descriptor.name] = {
      source: descriptor.source,
      ...(integrationId ? { integrationId } : {}),
      ...(descriptor.title ? { title: descriptor.title } : {}),
      ...(descriptor.annotations ? { annotations: descriptor.annotations } : {}),
      ...(fileArgumentsOf(descriptor.inputSchema) ? { takesFiles: true as const } : {}),
    };
  };
  const ids = agent?.mcpIntegrationIds ?? [];
  if (ids.length === 0) {
    for (const descriptor of ownTools) add(descriptor);
    deps.logger.info("No MCP integrations assigned to agent, skipping discovery", { agentId: agent?.id });
    return { ...features, late: [] };
  }
  const started = performance.now();
  deps.logger.info("Discovering MCP capabilities", {
    agentId: agent?.id,
    integrationCount: ids.length,
    integrationIds: ids,
  });
  const known = await deps.integrations(ids).catch(() => new Map<string, IntegrationInfo>());
  const settled: (PromiseSettledResult<McpFeatures> | undefined)[] = ids.map(() => undefined);
  const running = ids.map((integrationId) => deps.discover.execute(ctx, { integrationId }));
  const ms = () => Math.round(performance.now() - started);
  const discoveries = running.map((discovery, index) =>
    discovery.then(
      (value) => {
        settled[index] = { status: "fulfilled", value };
        deps.onSettled?.({
          integrationId: ids[index] as string,
          status: "connected",
          toolCount: value.tools.length,
          ms: ms(),
        });
      },
      (reason: unknown) => {
        settled[index] = { status: "rejected", reason };
        const status = failure(ids[index] as string, reason);
        deps.onSettled?.({
          integrationId: ids[index] as string,
          status: "failed",
          message: status.status === "failed" ? status.message : "It could not be reached.",
          ms: ms(),
        });
      },
    ),
  );
  // Integrations the health check marks failing are asked too, but nobody waits for them.
  const awaited = discoveries.filter((_, index) => known.get(ids[index] as string)?.status !== "failing");
  await Promise.race([Promise.allSettled(awaited), budgetElapsed(deps.budgetMs)]);

  const late: LateDiscovery[] = [];
  const claims: { descriptor: ToolDescriptor; integrationId?: string; tool?: string }[] = ownTools.map(
    (descriptor) => ({ descriptor }),
  );
  ids.forEach((integrationId, index) => {
    const info = known.get(integrationId);
    const result = settled[index];
    let found: McpFeatures | undefined;
    if (result?.status === "rejected") {
      const status = failure(integrationId, result.reason);
      deps.logger.warn("MCP discovery failed for integration", {
        integrationId,
        errorType: status.status === "failed" ? status.errorType : undefined,
        error: status.status === "failed" ? status.message : undefined,
      });
      features.integrations.push(status);
      return;
    }
    if (result?.status === "fulfilled") {
      found = result.value;
      features.integrations.push({ integrationId, status: "connected", ...counts(found) });
    } else {
      late.push({
        integrationId,
        outcome: (running[index] as Promise<McpFeatures>).then(
          (value) => ({ integrationId, status: "connected", late: true, ...counts(value) }),
          (reason: unknown) => failure(integrationId, reason, true),
        ),
      });
      // A slow server that the health check still trusts stands in with what it answered last time.
      if (info?.discovered && info.status !== "failing") {
        found = fromSnapshot(integrationId, info.discovered);
        features.integrations.push({
          integrationId,
          status: "stale",
          lastCheckedAt: info.lastCheckedAt?.toISOString() ?? null,
          ...counts(found),
        });
      } else features.integrations.push({ integrationId, status: "pending" });
      deps.logger.warn("MCP discovery is late for integration", {
        integrationId,
        budgetMs: deps.budgetMs,
        standIn: found ? "last discovery" : "none",
      });
    }
    if (!found) return;
    const integration = info ?? { slug: integrationId.slice(0, 8), name: "Integration" };
    for (const tool of found.tools)
      claims.push({
        descriptor: integrationToolDescriptor(integration, tool),
        integrationId,
        tool: tool.name,
      });
    features.resources.push(...found.resources);
    features.prompts.push(...found.prompts);
  });
  // Named as the catalog names them, so the tool the model sees under a name is the one a call of it runs.
  const named = claimToolNames(claims, {
    onTaken: (claim) =>
      deps.logger.warn(`${claim.integrationId ? "MCP tool" : "Capability"} skipped: its name is taken`, {
        integrationId: claim.integrationId,
        tool: claim.tool,
        name: claim.descriptor.name,
      }),
  });
  for (const { descriptor, integrationId } of named.values()) add(descriptor, integrationId);
  const byStatus = (status: IntegrationDiscoveryStatus["status"]) =>
    features.integrations.filter((i) => i.status === status).length;
  deps.logger.info("MCP discovery finished", {
    agentId: agent?.id,
    succeeded: byStatus("connected"),
    failed: byStatus("failed"),
    late: late.length,
    toolCount: Object.values(features.toolOrigins).filter((o) => o.source === "integration").length,
    resourceCount: features.resources.length,
    promptCount: features.prompts.length,
    durationMs: Math.round(performance.now() - started),
  });
  return { ...features, late };
}
