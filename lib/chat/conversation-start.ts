import { dynamicTool, jsonSchema, type Tool } from "ai";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Logger } from "@/lib/logger";
import type { McpPrompt, McpResource, McpTool, ToolExecutionResult } from "@/lib/mcp/types";
import type { DiscoverMcpCapabilities } from "@/lib/mcp/use-cases/discover-mcp-capabilities";
import type { ExecuteMcpTool } from "@/lib/mcp/use-cases/execute-mcp-tool";
import { integrationToolName } from "@/lib/tools/tool-names";
import { toolOutputForModel } from "./tool-result-budget";

/** The part of an agent that conversation start needs. */
export interface AgentForDiscovery {
  id: string;
  mcpIntegrationIds?: string[] | null;
}

export type IntegrationDiscoveryStatus =
  | {
      integrationId: string;
      status: "connected";
      toolCount: number;
      resourceCount: number;
      promptCount: number;
    }
  | { integrationId: string; status: "failed"; errorType: string; message: string };

/** What a conversation works with until it ends: discovered once, never again on each step of the tool loop. */
export interface ConversationCapabilities {
  tools: Record<string, Tool>;
  /** Where each MCP tool name leads, for showing calls and routing them. */
  mcpToolOrigins: Record<string, { integrationId: string; toolName: string }>;
  resources: McpResource[];
  prompts: McpPrompt[];
  integrations: IntegrationDiscoveryStatus[];
}

export interface ConversationStartDeps {
  discover: Pick<DiscoverMcpCapabilities, "execute">;
  execute: Pick<ExecuteMcpTool, "execute">;
  /** The slug of each integration, which prefixes its tools' names. */
  integrationSlugs: (integrationIds: string[]) => Promise<Map<string, string>>;
  logger: Logger;
  /** Records each MCP tool call for the dashboard (the built-in tools are recorded by the catalog). */
  recordUsage?: (entry: {
    tool: string;
    integrationId: string;
    outcome: "ok" | "tool_error" | "failed";
    latencyMs: number;
    errorCode?: string;
    arguments?: unknown;
    result?: unknown;
  }) => Promise<void>;
  /** Characters of a tool result the model reads; the rest is cut with a marker (default CHAT_TOOL_RESULT_MAX_CHARS). */
  resultBudget?: number;
}

function errorType(error: unknown): string {
  if (error instanceof AppError) return error.code;
  return error instanceof Error ? error.name : "Unknown";
}

/** An MCP tool as an AI SDK tool whose failures come back to the model as results it can read. */
function toAiTool(ctx: RequestContext, deps: ConversationStartDeps, tool: McpTool, name: string): Tool {
  return dynamicTool({
    description: tool.description ?? tool.title ?? tool.name,
    inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
    toModelOutput: ({ output }) =>
      toolOutputForModel(output, deps.resultBudget ?? getEnv().CHAT_TOOL_RESULT_MAX_CHARS),
    execute: async (input): Promise<ToolExecutionResult> => {
      const started = performance.now();
      const record = (
        outcome: "ok" | "tool_error" | "failed",
        detail: { errorCode?: string; result?: unknown },
      ) =>
        deps.recordUsage?.({
          tool: name,
          integrationId: tool.integrationId,
          outcome,
          latencyMs: performance.now() - started,
          arguments: input,
          ...detail,
        });
      try {
        const result = await deps.execute.execute(ctx, {
          integrationId: tool.integrationId,
          toolName: tool.name,
          parameters: (input ?? {}) as Record<string, unknown>,
        });
        await record(result.isError ? "tool_error" : "ok", { result });
        return result;
      } catch (error) {
        await record("failed", { errorCode: errorType(error) });
        // Access problems (a disabled integration, say) are still something the model should be told.
        return {
          isError: true,
          content: null,
          errorMessage: error instanceof Error ? error.message : "Tool execution failed",
        };
      }
    },
  });
}

/**
 * Discovers the agent's integrations once, in parallel; a failing integration is logged and reported but never
 * blocks the conversation. MCP tools get their integration's prefix and join the native tools, which win a clash.
 */
export async function discoverForConversation(
  deps: ConversationStartDeps,
  ctx: RequestContext,
  agent: AgentForDiscovery | null,
  nativeTools: Record<string, Tool>,
): Promise<ConversationCapabilities> {
  const ids = agent?.mcpIntegrationIds ?? [];
  const empty: ConversationCapabilities = {
    tools: { ...nativeTools },
    mcpToolOrigins: {},
    resources: [],
    prompts: [],
    integrations: [],
  };
  if (ids.length === 0) {
    deps.logger.info("No MCP integrations assigned to agent, skipping discovery", { agentId: agent?.id });
    return empty;
  }
  const started = performance.now();
  deps.logger.info("Discovering MCP capabilities", {
    agentId: agent?.id,
    integrationCount: ids.length,
    integrationIds: ids,
  });
  const [results, slugs] = await Promise.all([
    Promise.allSettled(ids.map((integrationId) => deps.discover.execute(ctx, { integrationId }))),
    deps.integrationSlugs(ids).catch(() => new Map<string, string>()),
  ]);

  const capabilities = empty;
  results.forEach((result, index) => {
    const integrationId = ids[index] as string;
    if (result.status === "rejected") {
      const message = result.reason instanceof Error ? result.reason.message : "Unknown error";
      deps.logger.warn("MCP discovery failed for integration", {
        integrationId,
        errorType: errorType(result.reason),
        error: message,
      });
      capabilities.integrations.push({
        integrationId,
        status: "failed",
        errorType: errorType(result.reason),
        message,
      });
      return;
    }
    const { tools, resources, prompts } = result.value;
    const slug = slugs.get(integrationId) ?? integrationId.slice(0, 8);
    for (const tool of tools) {
      const name = integrationToolName(slug, tool.name);
      if (capabilities.tools[name]) {
        deps.logger.warn("MCP tool skipped: its name is taken", { integrationId, tool: tool.name, name });
        continue;
      }
      capabilities.tools[name] = toAiTool(ctx, deps, tool, name);
      capabilities.mcpToolOrigins[name] = { integrationId, toolName: tool.name };
    }
    capabilities.resources.push(...resources);
    capabilities.prompts.push(...prompts);
    capabilities.integrations.push({
      integrationId,
      status: "connected",
      toolCount: tools.length,
      resourceCount: resources.length,
      promptCount: prompts.length,
    });
  });
  deps.logger.info("MCP discovery finished", {
    agentId: agent?.id,
    succeeded: capabilities.integrations.filter((i) => i.status === "connected").length,
    failed: capabilities.integrations.filter((i) => i.status === "failed").length,
    toolCount: Object.keys(capabilities.mcpToolOrigins).length,
    resourceCount: capabilities.resources.length,
    promptCount: capabilities.prompts.length,
    durationMs: Math.round(performance.now() - started),
  });
  return capabilities;
}
