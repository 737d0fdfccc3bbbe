import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Span } from "@opentelemetry/api";
import type { Database } from "@/db/client";
import type { Capability } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { executeCapability } from "@/lib/capabilities/executor";
import type { RunBudget } from "@/lib/capabilities/run-budget";
import type { CatalogCapability } from "@/lib/capabilities/store";
import { capabilityToolName, isCapabilityToolName } from "@/lib/capabilities/tool-name";
import { AppError, ForbiddenError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import type { CatalogIntegration, McpIntegration } from "@/lib/mcp/repository";
import type { McpClientPort } from "@/lib/mcp/types";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { countToolCall } from "@/lib/metrics/record";
import { inSpan } from "@/lib/tracing/tracer";
import { SCOPE_REFUSAL_CODE, UPSTREAM_ERROR_CODE } from "@/lib/usage/call-outcomes";
import { recordUsage, type UsageEntry } from "@/lib/usage/record-usage";
import { builtinTools } from "./builtin";
import { type OrgCatalog, orgCatalog } from "./catalog-cache";
import { checkedOutput } from "./check-output";
import { IntegrationUnavailableError } from "./integration-unavailable";
import { discoverMissing, refreshStaleDiscoveries } from "./refresh-discoveries";
import { allows, type DraftCapability, type ToolScope } from "./scope";
import { couldBeIntegrationToolName, integrationToolName } from "./tool-names";
import { claimToolNames } from "./tool-precedence";
import {
  type BuiltinTool,
  errorResult,
  type ToolDescriptor,
  type ToolDetails,
  type ToolResult,
  toolDetailsOf,
} from "./types";
import { validateToolArgs } from "./validate-args";

type CapabilitySource = Pick<Capability, "code"> & { id?: string };

type Entry =
  | { descriptor: ToolDescriptor; kind: "builtin"; tool: BuiltinTool }
  | { descriptor: ToolDescriptor; kind: "integration"; integration: CatalogIntegration; toolName: string }
  | { descriptor: ToolDescriptor; kind: "capability"; capability: CapabilitySource; draft: boolean };

export class UnknownToolError extends AppError {
  constructor(readonly toolName: string) {
    super("bad_request:unknown_tool", "unknown tool");
  }
}

/** How an integration's tool is listed everywhere: its prefixed name and a description that says where from. */
export function integrationToolDescriptor(
  integration: Pick<McpIntegration, "slug" | "name">,
  tool: Pick<Tool, "name" | "description" | "inputSchema"> & ToolDetails,
): ToolDescriptor {
  return {
    name: integrationToolName(integration.slug, tool.name),
    description: `${tool.description ?? tool.title ?? tool.annotations?.title ?? tool.name} (from ${integration.name})`,
    inputSchema: tool.inputSchema,
    ...toolDetailsOf(tool),
    source: "integration",
  };
}

// The kept catalog's rows never change, so neither do their tools' descriptors: made once per row.
const descriptorsByRow = new WeakMap<CatalogIntegration, ToolDescriptor[]>();

function descriptorsOf(integration: CatalogIntegration): ToolDescriptor[] {
  let descriptors = descriptorsByRow.get(integration);
  if (!descriptors) {
    descriptors = (integration.discovered?.tools ?? []).map((tool) =>
      integrationToolDescriptor(integration, tool),
    );
    descriptorsByRow.set(integration, descriptors);
  }
  return descriptors;
}

function capabilityDescriptor(capability: Omit<DraftCapability, "code" | "id">): ToolDescriptor {
  return {
    name: capabilityToolName(capability.namespace, capability.action),
    description: capability.description || `${capability.namespace} ${capability.action} (a capability)`,
    inputSchema: capability.parametersSchema,
    ...(capability.outputSchema
      ? { outputSchema: capability.outputSchema as ToolDetails["outputSchema"] }
      : {}),
    ...(capability.annotations ? { annotations: capability.annotations } : {}),
    source: "capability",
  };
}

const capabilityDescriptors = new WeakMap<CatalogCapability, ToolDescriptor>();

function capabilityDescriptorOf(capability: CatalogCapability): ToolDescriptor {
  let descriptor = capabilityDescriptors.get(capability);
  if (!descriptor) {
    descriptor = capabilityDescriptor(capability);
    capabilityDescriptors.set(capability, descriptor);
  }
  return descriptor;
}

/** The organization's integrations and capabilities in scope; for one call, only those that could hold its name. */
function inScope(catalog: OrgCatalog, scope: ToolScope, only?: string) {
  const integrations =
    scope.integrationIds?.length === 0
      ? []
      : catalog.integrations.filter(
          (row) =>
            allows(scope.integrationIds, row.id) && (!only || couldBeIntegrationToolName(row.slug, only)),
        );
  const capabilities =
    scope.capabilityIds?.length === 0
      ? []
      : catalog.capabilities.filter(
          (capability) =>
            allows(scope.capabilityIds, capability.id) &&
            capability.id !== scope.draft?.id &&
            (!only || capabilityToolName(capability.namespace, capability.action) === only),
        );
  return { integrations, capabilities };
}

/**
 * The tools in scope with how to reach each, in listing order: built-ins, an editor's draft, the integrations'
 * tools (from each one's latest discovery, oldest integration first), capabilities. Disabled integrations' tools
 * are kept aside to answer 403.
 */
function entriesOf(
  scope: ToolScope,
  integrations: readonly CatalogIntegration[],
  capabilities: readonly CatalogCapability[],
  only?: string,
) {
  const claims: Entry[] = [];
  const disabled = new Map<string, CatalogIntegration>();
  for (const tool of builtinTools)
    if (allows(scope.builtins, tool.name)) claims.push({ descriptor: tool, kind: "builtin", tool });
  // An editor's draft is what its test run calls, whatever else might hold its name.
  const { draft } = scope;
  if (draft) {
    const descriptor = capabilityDescriptor(draft);
    if (!only || only === descriptor.name)
      claims.push({ kind: "capability", capability: draft, draft: true, descriptor });
  }
  for (const integration of integrations) {
    const tools = integration.discovered?.tools ?? [];
    descriptorsOf(integration).forEach((descriptor, index) => {
      if (!integration.enabled) disabled.set(descriptor.name, integration);
      else
        claims.push({ kind: "integration", integration, toolName: (tools[index] as Tool).name, descriptor });
    });
  }
  for (const capability of capabilities)
    claims.push({
      kind: "capability",
      capability,
      draft: false,
      descriptor: capabilityDescriptorOf(capability),
    });
  // Never two tools under one name; a name switched off is not there at all.
  const listed = claimToolNames(claims, { hidden: new Set(scope.hiddenTools ?? []) });
  return { listed, disabled };
}

const isNeverDiscovered = (integration: CatalogIntegration) =>
  integration.enabled && !integration.discovered && !integration.lastCheckedAt;

/**
 * The tools in scope that could be `name`, with how to reach each. An integration never discovered that could hold
 * it is discovered now, within the discovery budget.
 */
async function entriesFor(db: Database, ctx: RequestContext, scope: ToolScope, name: string) {
  const found = inScope(await orgCatalog(db, ctx.orgId), scope, name);
  const integrations = await discoverMissing(db, ctx, found.integrations);
  // One whose tools are not known (never discovered, or no answer yet) may well hold the name.
  const undiscovered = integrations.find((integration) => integration.enabled && !integration.discovered);
  return { ...entriesOf(scope, integrations, found.capabilities, name), undiscovered };
}

/**
 * One listing of the tools in scope. While the organization's catalog is unchanged, a scope gets the same one, and
 * each surface keeps what it makes of it (its serialized answer) on it, so a large listing is serialized once.
 */
export class ToolListing {
  private readonly derived = new Map<string, unknown>();

  constructor(readonly tools: readonly ToolDescriptor[]) {}

  /** A value made from these tools once per listing, under a key naming what it is. */
  once<T>(key: string, make: (tools: readonly ToolDescriptor[]) => T): T {
    if (!this.derived.has(key)) this.derived.set(key, make(this.tools));
    return this.derived.get(key) as T;
  }
}

// Listings made from a kept catalog, by scope; they go when the catalog changes.
const listingsByCatalog = new WeakMap<OrgCatalog, Map<string, ToolListing>>();
// Scopes remembered per catalog: keys limited to a few integrations each are few per organization.
const MAX_LISTINGS = 64;

function listingKey(scope: ToolScope): string {
  return JSON.stringify([scope.builtins, scope.integrationIds, scope.capabilityIds, scope.hiddenTools]);
}

export interface ListOptions {
  scope?: ToolScope;
}

/**
 * Every tool in scope: built-ins first, then the integrations' tools, then capabilities. Integrations never
 * discovered are discovered now, within the discovery budget; those discovered long ago are rediscovered behind it.
 */
export async function listToolSet(
  db: Database,
  ctx: RequestContext,
  { scope = {} }: ListOptions = {},
): Promise<ToolListing> {
  const catalog = await orgCatalog(db, ctx.orgId);
  const found = inScope(catalog, scope);
  const neverDiscovered = found.integrations.filter(isNeverDiscovered);
  refreshStaleDiscoveries(
    db,
    ctx,
    found.integrations.filter((integration) => !neverDiscovered.includes(integration)),
  );
  // Made afresh when it has a draft in it or waits for a discovery; those listings are for one request.
  if (scope.draft || neverDiscovered.length > 0) {
    const integrations = await discoverMissing(db, ctx, found.integrations);
    const { listed } = entriesOf(scope, integrations, found.capabilities);
    return new ToolListing([...listed.values()].map((entry) => entry.descriptor));
  }
  let listings = listingsByCatalog.get(catalog);
  if (!listings) {
    listings = new Map();
    listingsByCatalog.set(catalog, listings);
  }
  const key = listingKey(scope);
  let listing = listings.get(key);
  if (!listing) {
    const { listed } = entriesOf(scope, found.integrations, found.capabilities);
    listing = new ToolListing([...listed.values()].map((entry) => entry.descriptor));
    if (listings.size >= MAX_LISTINGS) listings.clear();
    listings.set(key, listing);
  }
  return listing;
}

/** Every tool in scope, as a list the caller may change. */
export async function listTools(db: Database, ctx: RequestContext, options: ListOptions = {}) {
  return [...(await listToolSet(db, ctx, options)).tools];
}

export interface InvokeOptions {
  surface: UsageEntry["surface"];
  scope?: ToolScope;
  client?: McpClientPort;
  /** The caller's own session, when it keeps per-client state with the servers (a pass-through client's). */
  upstreamSession?: string;
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
  const { listed, disabled, undiscovered } = await entriesFor(db, ctx, scope, name);
  return { entry: listed.get(name), disabledBy: disabled.get(name), undiscovered };
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
  const useCases = mcpUseCases(db, options.client);
  const execution = await useCases.executeTool(ctx, {
    integrationId: entry.integration.id,
    integration: entry.integration,
    toolName: entry.toolName,
    parameters: params,
    signal: options.budget?.signal ?? options.signal,
    upstreamSession: options.upstreamSession,
  });
  const { failure } = execution;
  // The server did not take the call (failing, unreachable, or the call was cut off): the caller hears so.
  if (failure?.kind === "unavailable")
    throw new IntegrationUnavailableError(
      entry.descriptor.name,
      entry.integration,
      execution.errorMessage ?? "Its server did not answer.",
      failure.state,
    );
  return {
    isError: execution.isError,
    content: execution.content ?? [],
    ...(execution.structuredContent ? { structuredContent: execution.structuredContent } : {}),
    ...(execution.errorMessage ? { errorMessage: execution.errorMessage } : {}),
    ...(failure?.kind === "upstream" ? { upstreamError: failure.rpc } : {}),
  };
}

/**
 * Calls a tool by its listed name, from any surface: looks it up in scope, validates the params against its
 * schema, runs it, and logs and records the call once.
 */
export function invokeTool(
  db: Database,
  ctx: RequestContext,
  name: string,
  params: Record<string, unknown>,
  options: InvokeOptions,
): Promise<ToolResult> {
  const attributes = { "switchboard.tool.name": name, "switchboard.surface": options.surface };
  return inSpan("tools.call", { attributes }, (span) => invokeInSpan(db, ctx, name, params, options, span));
}

async function invokeInSpan(
  db: Database,
  ctx: RequestContext,
  name: string,
  params: Record<string, unknown>,
  options: InvokeOptions,
  span: Span,
): Promise<ToolResult> {
  const started = performance.now();
  let entry: Entry | undefined;
  // A name outside the caller's scope is answered as unknown, but recorded as the tool it is, refused by scope.
  let outOfScope = false;
  const log = async (
    outcome: "ok" | "tool_error" | "failed",
    { result, errorCode }: { errorCode?: string; result?: ToolResult } = {},
  ) => {
    const elapsedMs = performance.now() - started;
    const latencyMs = Math.round(elapsedMs);
    countToolCall(options.surface, entry?.descriptor.source, outcome, elapsedMs, ctx.orgId);
    span.setAttributes({
      "switchboard.tool.source": entry?.descriptor.source ?? "unknown",
      "switchboard.outcome": outcome,
    });
    logger.info("tool call", {
      tool: name,
      surface: options.surface,
      orgId: ctx.orgId,
      userId: ctx.userId,
      apiKeyId: ctx.apiKeyId,
      oauthClientId: ctx.oauthClientId,
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
    const found = await inSpan("catalog.lookup", {}, () => lookUp(db, ctx, name, options.scope ?? {}));
    entry = found.entry;
    if (!entry) {
      if (found.disabledBy)
        throw new ForbiddenError(
          `The integration "${found.disabledBy.name}" that provides ${name} is disabled.`,
        );
      if (found.undiscovered) {
        const { undiscovered } = found;
        const state = mcpUseCases(db, options.client).stateOf(undiscovered.id);
        throw new IntegrationUnavailableError(
          name,
          undiscovered,
          state
            ? `Its tools are not known yet: ${state.cause}.`
            : "Its tools are not known yet: its server has not answered since it was added.",
          state,
        );
      }
      if (options.scope) {
        entry = (await lookUp(db, ctx, name, {})).entry;
        outOfScope = entry !== undefined;
      }
      throw new UnknownToolError(name);
    }
    // Built-ins parse their own arguments, so their messages are exactly those their contract promises.
    if (entry.kind !== "builtin") {
      const schema = entry.descriptor.inputSchema;
      await inSpan("tool.validate", {}, async () => validateToolArgs(schema, params));
    }
    const result = checkedOutput(entry.descriptor, await run(db, ctx, entry, params, options));
    await log(result.isError ? "tool_error" : "ok", {
      result,
      // The server's own protocol error is the server failing the call, not the tool's answer.
      ...(result.upstreamError ? { errorCode: UPSTREAM_ERROR_CODE } : {}),
    });
    return result;
  } catch (error) {
    const errorCode = outOfScope ? SCOPE_REFUSAL_CODE : error instanceof AppError ? error.code : "internal";
    await log("failed", { errorCode });
    throw error;
  }
}

/** What a caller that must answer with a result (the chat, an MCP client) gets for a call that threw. */
export function toolErrorOf(error: unknown, name: string): ToolResult {
  if (error instanceof UnknownToolError)
    return errorResult(
      isCapabilityToolName(name) ? `Capability not found: ${name}` : `Unknown tool: ${name}`,
    );
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
