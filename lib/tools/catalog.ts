import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/db/client";
import type { Capability } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { executeCapability } from "@/lib/capabilities/executor";
import { capabilityToolName } from "@/lib/capabilities/names";
import type { RunBudget } from "@/lib/capabilities/run-budget";
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
import { recordUsage, type UsageEntry } from "@/lib/usage/record-usage";
import { builtinTools } from "./builtin";
import { discoverMissing, refreshStaleDiscoveries } from "./refresh-discoveries";
import { allows, type DraftCapability, type ToolScope } from "./scope";
import { integrationToolName } from "./tool-names";
import { type BuiltinTool, errorResult, type ToolDescriptor, type ToolResult } from "./types";
import { validateToolArgs } from "./validate-args";

type CapabilitySource = Pick<Capability, "code"> & { id?: string };

type Entry =
  | { descriptor: ToolDescriptor; kind: "builtin"; tool: BuiltinTool }
  | { descriptor: ToolDescriptor; kind: "integration"; integration: McpIntegration; toolName: string }
  | { descriptor: ToolDescriptor; kind: "capability"; capability: CapabilitySource; draft: boolean };

export class UnknownToolError extends AppError {
  constructor(readonly toolName: string) {
    super("bad_request:unknown_tool", "unknown tool");
  }
}

/** How an integration's tool is listed everywhere: its prefixed name and a description that says where from. */
export function integrationToolDescriptor(
  integration: Pick<McpIntegration, "slug" | "name">,
  tool: Pick<Tool, "name" | "title" | "description" | "annotations" | "inputSchema">,
): ToolDescriptor {
  return {
    name: integrationToolName(integration.slug, tool.name),
    description: `${tool.description ?? tool.title ?? tool.annotations?.title ?? tool.name} (from ${integration.name})`,
    inputSchema: tool.inputSchema,
    source: "integration",
  };
}

function capabilityDescriptor(capability: Omit<DraftCapability, "code" | "id">): ToolDescriptor {
  return {
    name: capabilityToolName(capability.namespace, capability.action),
    description: capability.description || `${capability.namespace} ${capability.action} (a capability)`,
    inputSchema: capability.parametersSchema,
    source: "capability",
  };
}

/**
 * The tools in scope with how to reach each. Integration tools come from each integration's latest discovery
 * (one never discovered is discovered inline, within the discovery budget); disabled integrations are kept
 * aside to answer 403.
 */
async function loadEntries(
  db: Database,
  ctx: RequestContext,
  scope: ToolScope,
  options: { refresh?: boolean; only?: string } = {},
) {
  const listed = new Map<string, Entry>();
  const disabled = new Map<string, McpIntegration>();
  const hidden = new Set(scope.hiddenTools ?? []);
  const add = (entry: Entry) => {
    // Never two tools under one name; a name switched off is not there at all.
    if (!listed.has(entry.descriptor.name) && !hidden.has(entry.descriptor.name))
      listed.set(entry.descriptor.name, entry);
  };
  for (const tool of builtinTools)
    if (allows(scope.builtins, tool.name)) add({ descriptor: tool, kind: "builtin", tool });
  // For one call, only the rows that could hold that name are read, in the same order as the full listing.
  const { only } = options;
  const none = Promise.resolve([]);
  const [rows, ownCapabilities] = await Promise.all([
    scope.integrationIds?.length === 0
      ? none
      : only
        ? listIntegrationsForToolName(db, ctx.orgId, only)
        : listIntegrationsForOrg(db, ctx.orgId),
    scope.capabilityIds?.length === 0
      ? none
      : only
        ? listCapabilitiesForToolName(db, ctx.orgId, only)
        : listCapabilities(db, ctx.orgId),
  ]);
  // An editor's draft is what its test run calls, whatever else might hold its name.
  const { draft } = scope;
  if (draft) {
    const descriptor = capabilityDescriptor(draft);
    if (!only || only === descriptor.name)
      add({ kind: "capability", capability: draft, draft: true, descriptor });
  }
  const inScope = rows.filter((row) => allows(scope.integrationIds, row.id));
  const integrations = await discoverMissing(db, ctx, inScope);
  if (options.refresh) refreshStaleDiscoveries(db, ctx, integrations);
  for (const integration of integrations) {
    for (const tool of integration.discovered?.tools ?? []) {
      const descriptor = integrationToolDescriptor(integration, tool);
      if (!integration.enabled) disabled.set(descriptor.name, integration);
      else add({ kind: "integration", integration, toolName: tool.name, descriptor });
    }
  }
  for (const capability of ownCapabilities) {
    if (!allows(scope.capabilityIds, capability.id) || capability.id === draft?.id) continue;
    add({ kind: "capability", capability, draft: false, descriptor: capabilityDescriptor(capability) });
  }
  return { listed, disabled };
}

export interface ListOptions {
  scope?: ToolScope;
}

/** Every tool in scope: built-ins first, then the integrations' tools, then capabilities. */
export async function listTools(
  db: Database,
  ctx: RequestContext,
  { scope = {} }: ListOptions = {},
): Promise<ToolDescriptor[]> {
  const { listed } = await loadEntries(db, ctx, scope, { refresh: true });
  return [...listed.values()].map((entry) => entry.descriptor);
}

export interface InvokeOptions {
  surface: UsageEntry["surface"];
  scope?: ToolScope;
  client?: McpClientPort;
  /** How many capabilities deep this call is (capability code calling tools). */
  depth?: number;
  /** The request's cancellation: capability runs it reaches stop when it fires. */
  signal?: AbortSignal;
  /** The request's capability budget, passed down to nested calls. */
  budget?: RunBudget;
}

async function lookUp(db: Database, ctx: RequestContext, name: string, scope: ToolScope) {
  // Built-ins need no look-up of the organization's integrations; a name is never both.
  const builtin = builtinTools.find((tool) => tool.name === name);
  if (builtin && !scope.hiddenTools?.includes(name) && allows(scope.builtins, name))
    return { entry: { descriptor: builtin, kind: "builtin", tool: builtin } as Entry };
  const { listed, disabled } = await loadEntries(db, ctx, scope, { only: name });
  return { entry: listed.get(name), disabledBy: disabled.get(name) };
}

/** Runs a looked-up tool whose arguments passed validation. */
async function run(
  db: Database,
  ctx: RequestContext,
  entry: Entry,
  params: Record<string, unknown>,
  options: InvokeOptions,
): Promise<ToolResult> {
  if (entry.kind === "builtin") return entry.tool.run(db, ctx, params);
  if (entry.kind === "capability") {
    const { result, run: sandboxRun } = await executeCapability(db, entry.capability, params, {
      depth: options.depth ?? 0,
      record: !entry.draft,
      budget: options.budget,
      signal: options.signal,
      // Nested calls keep the caller's scope, minus an editor draft, which only its own run may use.
      callTool: (tool, args, nested) =>
        invokeTool(db, ctx, tool, args, {
          ...options,
          scope: { ...options.scope, draft: undefined },
          surface: "capability",
          ...nested,
        }),
    });
    if (entry.draft) options.scope?.draft?.onRun?.(sandboxRun);
    return result;
  }
  const execution = await mcpUseCases(db, options.client).execute.execute(ctx, {
    integrationId: entry.integration.id,
    toolName: entry.toolName,
    parameters: params,
    signal: options.budget?.signal ?? options.signal,
  });
  return {
    isError: execution.isError,
    content: execution.content ?? [],
    ...(execution.structuredContent ? { structuredContent: execution.structuredContent } : {}),
    ...(execution.errorMessage ? { errorMessage: execution.errorMessage } : {}),
  };
}

/**
 * Calls a tool by its listed name, from any surface: looks it up in scope, validates the params against its
 * schema, runs it, and logs and records the call once.
 */
export async function invokeTool(
  db: Database,
  ctx: RequestContext,
  name: string,
  params: Record<string, unknown>,
  options: InvokeOptions,
): Promise<ToolResult> {
  const started = performance.now();
  let entry: Entry | undefined;
  const log = async (
    outcome: "ok" | "tool_error" | "failed",
    { result, errorCode }: { errorCode?: string; result?: ToolResult } = {},
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
      ...(errorCode ? { errorCode } : {}),
      ...(result?.isError && result.errorMessage ? { errorMessage: result.errorMessage } : {}),
    });
    await recordUsage(db, ctx, {
      surface: options.surface,
      tool: name,
      source: entry?.descriptor.source,
      integrationId: entry?.kind === "integration" ? entry.integration.id : undefined,
      capabilityId: entry?.kind === "capability" ? entry.capability.id : undefined,
      outcome,
      latencyMs,
      errorCode,
      arguments: params,
      result,
    });
  };
  try {
    const found = await lookUp(db, ctx, name, options.scope ?? {});
    entry = found.entry;
    if (!entry) {
      if (found.disabledBy)
        throw new ForbiddenError(
          `The integration "${found.disabledBy.name}" that provides ${name} is disabled.`,
        );
      throw new UnknownToolError(name);
    }
    // Built-ins parse their own arguments, so their messages are exactly those their contract promises.
    if (entry.kind !== "builtin") validateToolArgs(entry.descriptor.inputSchema, params);
    const result = await run(db, ctx, entry, params, options);
    await log(result.isError ? "tool_error" : "ok", { result });
    return result;
  } catch (error) {
    await log("failed", { errorCode: error instanceof AppError ? error.code : "internal" });
    throw error;
  }
}

/** What a caller that must answer with a result (the chat, an MCP client) gets for a call that threw. */
export function toolErrorOf(error: unknown, name: string): ToolResult {
  if (error instanceof UnknownToolError)
    return errorResult(name.startsWith("mcp__") ? `Capability not found: ${name}` : `Unknown tool: ${name}`);
  if (error instanceof AppError && error.type !== "internal") return errorResult(error.message);
  logger.error("tool call failed", { tool: name, err: error });
  return errorResult("Tool execution failed.");
}

/** `invokeTool` for surfaces that answer every call with a result: a refused or failed call is an error result. */
export async function callTool(
  db: Database,
  ctx: RequestContext,
  name: string,
  params: Record<string, unknown>,
  options: InvokeOptions,
): Promise<ToolResult> {
  try {
    return await invokeTool(db, ctx, name, params, options);
  } catch (error) {
    return toolErrorOf(error, name);
  }
}
