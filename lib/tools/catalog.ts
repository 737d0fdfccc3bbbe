import type { Database } from "@/db/client";
import type { Capability } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { executeCapability } from "@/lib/capabilities/executor";
import { capabilityToolName } from "@/lib/capabilities/names";
import { listCapabilities, listCapabilitiesForToolName } from "@/lib/capabilities/store";
import { AppError, ForbiddenError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import {
  listIntegrationsForOrg,
  listIntegrationsForToolName,
  type McpIntegration,
} from "@/lib/mcp/repository";
import type { McpClientPort } from "@/lib/mcp/types";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { recordUsage } from "@/lib/usage/record-usage";
import { builtinTools } from "./builtin";
import { refreshStaleDiscoveries } from "./refresh-discoveries";
import { integrationToolName } from "./tool-names";
import type { BuiltinTool, ToolDescriptor, ToolResult } from "./types";
import { validateToolArgs } from "./validate-args";

type Entry =
  | { descriptor: ToolDescriptor; kind: "builtin"; tool: BuiltinTool }
  | { descriptor: ToolDescriptor; kind: "integration"; integration: McpIntegration; toolName: string }
  | { descriptor: ToolDescriptor; kind: "capability"; capability: Capability };

export class UnknownToolError extends AppError {
  constructor(readonly toolName: string) {
    super("bad_request:unknown_tool", "unknown tool");
  }
}

/**
 * The organization's tools with how to reach each. Integration tools come from each integration's latest
 * discovery, so listing never waits on a live server; disabled integrations are kept aside to answer 403.
 */
async function loadEntries(
  db: Database,
  ctx: RequestContext,
  options: { refresh?: boolean; only?: string } = {},
) {
  const listed = new Map<string, Entry>();
  const disabled = new Map<string, McpIntegration>();
  for (const tool of builtinTools) listed.set(tool.name, { descriptor: tool, kind: "builtin", tool });
  // For one call, only the rows that could hold that name are read, in the same order as the full listing.
  const { only } = options;
  const [integrations, ownCapabilities] = await Promise.all([
    only ? listIntegrationsForToolName(db, ctx.orgId, only) : listIntegrationsForOrg(db, ctx.orgId),
    only ? listCapabilitiesForToolName(db, ctx.orgId, only) : listCapabilities(db, ctx.orgId),
  ]);
  if (options.refresh) refreshStaleDiscoveries(db, ctx, integrations);
  for (const integration of integrations) {
    for (const tool of integration.discovered?.tools ?? []) {
      const name = integrationToolName(integration.slug, tool.name);
      if (!integration.enabled) {
        disabled.set(name, integration);
        continue;
      }
      if (listed.has(name)) continue; // never two tools under one name
      listed.set(name, {
        kind: "integration",
        integration,
        toolName: tool.name,
        descriptor: {
          name,
          description: `${tool.description ?? tool.title ?? tool.name} (from ${integration.name})`,
          inputSchema: tool.inputSchema,
          source: "integration",
        },
      });
    }
  }
  for (const capability of ownCapabilities) {
    const name = capabilityToolName(capability.namespace, capability.action);
    if (listed.has(name)) continue;
    listed.set(name, {
      kind: "capability",
      capability,
      descriptor: {
        name,
        description: capability.description || `${capability.namespace} ${capability.action} (a capability)`,
        inputSchema: capability.parametersSchema,
        source: "capability",
      },
    });
  }
  return { listed, disabled };
}

/** Every tool the organization can use: built-ins first, then the integrations' tools, then capabilities. */
export async function listTools(db: Database, ctx: RequestContext): Promise<ToolDescriptor[]> {
  const { listed } = await loadEntries(db, ctx, { refresh: true });
  return [...listed.values()].map((entry) => entry.descriptor);
}

export interface InvokeOptions {
  surface: "rest" | "chat" | "gateway" | "capability";
  client?: McpClientPort;
  /** How many capabilities deep this call is (capability code calling tools). */
  depth?: number;
}

/** Calls a tool by its listed name: validates params against its schema, routes it, and logs the call once. */
export async function invokeTool(
  db: Database,
  ctx: RequestContext,
  name: string,
  params: Record<string, unknown>,
  options: InvokeOptions,
): Promise<ToolResult> {
  const started = performance.now();
  // Built-ins need no look-up of the organization's integrations; a name is never both.
  const builtin = builtinTools.find((tool) => tool.name === name);
  const { listed, disabled } = builtin
    ? {
        listed: new Map<string, Entry>([[name, { descriptor: builtin, kind: "builtin", tool: builtin }]]),
        disabled: new Map<string, McpIntegration>(),
      }
    : await loadEntries(db, ctx, { only: name });
  const entry = listed.get(name);
  // One log line and one usage record per call, whatever the surface.
  const log = async (
    outcome: "ok" | "tool_error" | "failed",
    { result, ...extra }: { errorMessage?: string; errorCode?: string; result?: ToolResult } = {},
  ) => {
    const latencyMs = Math.round(performance.now() - started);
    logger.info("tool call", {
      tool: name,
      surface: options.surface,
      orgId: ctx.orgId,
      userId: ctx.userId,
      apiKeyId: ctx.apiKeyId,
      source: entry?.descriptor.source,
      outcome,
      durationMs: latencyMs,
      ...extra,
    });
    await recordUsage(db, ctx, {
      surface: options.surface,
      tool: name,
      source: entry?.descriptor.source,
      integrationId: entry?.kind === "integration" ? entry.integration.id : undefined,
      capabilityId: entry?.kind === "capability" ? entry.capability.id : undefined,
      outcome,
      latencyMs,
      errorCode: extra.errorCode,
      arguments: params,
      result,
    });
  };
  try {
    if (!entry) {
      const integration = disabled.get(name);
      if (integration)
        throw new ForbiddenError(`The integration "${integration.name}" that provides ${name} is disabled.`);
      throw new UnknownToolError(name);
    }
    if (entry.kind === "builtin") {
      const result = await entry.tool.run(db, ctx, params);
      await log(result.isError ? "tool_error" : "ok", { result });
      return result;
    }
    validateToolArgs(entry.descriptor.inputSchema, params);
    if (entry.kind === "capability") {
      const { result } = await executeCapability(db, entry.capability, params, {
        depth: options.depth ?? 0,
        callTool: (tool, args, depth) =>
          invokeTool(db, ctx, tool, args, { ...options, surface: "capability", depth }),
      });
      await log(result.isError ? "tool_error" : "ok", {
        result,
        ...(result.isError ? { errorMessage: result.errorMessage } : {}),
      });
      return result;
    }
    const execution = await mcpUseCases(db, options.client).execute.execute(ctx, {
      integrationId: entry.integration.id,
      toolName: entry.toolName,
      parameters: params,
    });
    const result: ToolResult = {
      isError: execution.isError,
      content: execution.content ?? [],
      ...(execution.structuredContent ? { structuredContent: execution.structuredContent } : {}),
      ...(execution.errorMessage ? { errorMessage: execution.errorMessage } : {}),
    };
    await log(result.isError ? "tool_error" : "ok", {
      result,
      ...(result.isError ? { errorMessage: result.errorMessage } : {}),
    });
    return result;
  } catch (error) {
    await log("failed", { errorCode: error instanceof AppError ? error.code : "internal" });
    throw error;
  }
}
