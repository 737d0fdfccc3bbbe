import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/db/client";
import type { CatalogIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { orgCatalog } from "@/lib/tools/catalog-cache";
import { discoverMissing, refreshStaleDiscoveries } from "@/lib/tools/refresh-discoveries";
import { allows } from "@/lib/tools/scope";
import { integrationToolName } from "@/lib/tools/tool-names";
import type { GatewayCaller } from "./caller";
import { callCatalogTool, type GatewayCall, paged, requestServer, sdkCall } from "./gateway-server";
import { invalidParams, upstreamError } from "./mcp-errors";
import type { GatewaySession } from "./sessions/session-store";
import { serveSubscriptions } from "./sessions/subscriptions";

/**
 * The caller's organization's integration with this slug, if it is enabled and in the caller's scope: discovered now
 * if it never was (within the discovery budget), and rediscovered in the background once its discovery is stale,
 * as the gateway's listings do.
 */
export async function integrationForCaller(
  db: Database,
  ctx: GatewayCaller,
  slug: string,
): Promise<CatalogIntegration | undefined> {
  const catalog = await orgCatalog(db, ctx.orgId);
  const integration = catalog.integrations.find(
    (row) => row.slug === slug && row.enabled && allows(ctx.toolScope.integrationIds, row.id),
  );
  if (!integration) return undefined;
  refreshStaleDiscoveries(db, ctx, [integration]);
  const [current] = await discoverMissing(db, ctx, [integration]);
  return current;
}

/** A call of one of the integration's tools by its own name, through the catalog. */
export async function integrationToolCall(
  db: Database,
  ctx: GatewayCaller,
  integration: CatalogIntegration,
  { name, arguments: args }: CallToolRequest["params"],
  call: GatewayCall,
): Promise<CallToolResult> {
  // One never discovered may have it: the catalog says the integration is unavailable.
  if (integration.discovered && !integration.discovered.tools.some((tool) => tool.name === name))
    return { isError: true, content: [{ type: "text", text: `Unknown tool: ${name}` }] };
  return callCatalogTool(db, ctx, integrationToolName(integration.slug, name), args ?? {}, call);
}

/**
 * One integration's server passed through, for one request: its tools, resources and prompts under their own
 * names (no prefixes, no meta-tools), from its stored discovery. Calls go through the catalog, so they are
 * checked, validated and recorded in usage exactly as on the aggregated gateway.
 */
export function createIntegrationServer(
  db: Database,
  ctx: GatewayCaller,
  integration: CatalogIntegration,
  session?: GatewaySession,
): Server {
  const discovered = integration.discovered ?? { tools: [], resources: [], prompts: [] };
  const server = requestServer(
    { name: integration.slug, title: integration.name, version: "0.1.0" },
    `The tools, resources and prompts of ${integration.name}, through Switchboard.`,
    { completions: {} },
  );
  const useCases = mcpUseCases(db);
  // A client's session gets an upstream session of its own: its settings there are its own.
  const upstreamSession = session?.id;
  const target = { integrationId: integration.id, upstreamSession };

  server.setRequestHandler(ListToolsRequestSchema, (request) =>
    paged("tools", discovered.tools, request.params?.cursor),
  );

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    integrationToolCall(db, ctx, integration, request.params, {
      ...sdkCall(extra, session),
      upstreamSession,
    }),
  );

  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    paged("resources", discovered.resources, request.params?.cursor),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) =>
    paged(
      "resourceTemplates",
      await useCases.listResourceTemplates(ctx, target).catch((error: unknown) => {
        throw upstreamError(error);
      }),
      request.params?.cursor,
    ),
  );

  serveSubscriptions(server, db, ctx, session, async (uri) => ({ ...target, uri }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    useCases.readResource(ctx, { ...target, uri: request.params.uri }).catch((error: unknown) => {
      throw upstreamError(error);
    }),
  );

  server.setRequestHandler(ListPromptsRequestSchema, (request) =>
    paged("prompts", discovered.prompts, request.params?.cursor),
  );

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const { name } = request.params;
    if (!discovered.prompts.some((prompt) => prompt.name === name))
      throw invalidParams(`Prompt not found: ${name}`);
    return useCases
      .getPrompt(ctx, { ...target, name, arguments: request.params.arguments ?? {} })
      .catch((error: unknown) => {
        throw upstreamError(error);
      });
  });

  server.setRequestHandler(CompleteRequestSchema, (request) =>
    useCases.complete(ctx, { ...target, params: request.params }).catch((error: unknown) => {
      throw upstreamError(error);
    }),
  );

  return server;
}
