import type {
  CallToolRequestParams,
  CallToolResult,
  Prompt,
  Resource,
  Tool,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import type { CatalogIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { orgCatalog } from "@/lib/tools/catalog-cache";
import { discoverMissing, refreshStaleDiscoveries } from "@/lib/tools/refresh-discoveries";
import { allows } from "@/lib/tools/scope";
import { integrationToolName } from "@/lib/tools/tool-names";
import { toolDetailsOf } from "@/lib/tools/types";
import type { GatewayCaller } from "./caller";
import { callCatalogTool } from "./catalog-call";
import type { GatewayCall, McpEndpoint } from "./endpoint";
import { invalidParams, upstreamError } from "./mcp-errors";
import { mirrorsArguments } from "./modern-lone-call";

/**
 * The caller's organization's integration with this slug, if it is enabled and in the caller's scope: discovered
 * now if it never was (within the discovery budget), and rediscovered in the background once its discovery is stale,
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
  { name, arguments: args }: CallToolRequestParams,
  call: GatewayCall,
): Promise<CallToolResult> {
  // One never discovered may have it: the catalog says the integration is unavailable.
  if (integration.discovered && !integration.discovered.tools.some((tool) => tool.name === name))
    return { isError: true, content: [{ type: "text", text: `Unknown tool: ${name}` }] };
  return callCatalogTool(db, ctx, integrationToolName(integration.slug, name), args ?? {}, call);
}

/** Whether the server runs this tool as a task when asked to (its taskSupport is "required" or "optional"). */
export const runsAsTask = (tool: { execution?: { taskSupport?: string } } | undefined) =>
  tool?.execution?.taskSupport === "required" || tool?.execution?.taskSupport === "optional";

// Tools listed once per stored discovery, not once per request.
const listedTools = new WeakMap<CatalogIntegration, Tool[]>();

/**
 * The integration's tools as this endpoint offers them, as listed, but for a tool its server runs only as a task:
 * Switchboard calls it as one for a caller that does not, so here it may run as a task (toolDetailsOf).
 */
function toolsOf(integration: CatalogIntegration): Tool[] {
  let tools = listedTools.get(integration);
  if (!tools) {
    tools = (integration.discovered?.tools ?? []).map((tool) => {
      if (tool.execution?.taskSupport !== "required") return tool as Tool;
      const { execution: _execution, ...rest } = tool;
      return { ...rest, ...toolDetailsOf(tool) } as Tool;
    });
    listedTools.set(integration, tools);
  }
  return tools;
}

/**
 * One integration's server passed through, for one caller: its tools, resources and prompts under their own names
 * (no prefixes, no meta-tools), from its stored discovery. Calls go through the catalog, so they are checked,
 * validated and recorded in usage exactly as on the aggregated gateway. In a client's session, everything goes
 * to an upstream session of its own (`upstreamSession`), so what one client sets on the server never reaches another.
 */
export function integrationEndpoint(
  db: Database,
  ctx: GatewayCaller,
  integration: CatalogIntegration,
  upstreamSession?: string,
): McpEndpoint {
  const discovered = integration.discovered ?? { tools: [], resources: [], prompts: [] };
  const useCases = mcpUseCases(db);
  const target = { integrationId: integration.id, upstreamSession };
  const relayed = <T>(answer: Promise<T>) =>
    answer.catch((error: unknown) => {
      throw upstreamError(error);
    });
  return {
    info: { name: integration.slug, title: integration.name, version: "0.1.0" },
    instructions: `The tools, resources and prompts of ${integration.name}, through Switchboard.`,
    tools: async () => toolsOf(integration),
    async mirroringSchemaOf(name) {
      const schema = discovered.tools.find((tool) => tool.name === name)?.inputSchema;
      return schema && mirrorsArguments(schema) ? schema : undefined;
    },
    runsAsTask: async (name) => runsAsTask(discovered.tools.find((tool) => tool.name === name)),
    callTool: (params, call) =>
      integrationToolCall(db, ctx, integration, params, { ...call, upstreamSession }),
    resources: async () => discovered.resources as Resource[],
    resourceTemplates: () => relayed(useCases.listResourceTemplates(ctx, target)),
    readResource: (uri, call) =>
      relayed(withDownstreamRelay(call?.relay, () => useCases.readResource(ctx, { ...target, uri }))),
    prompts: async () => discovered.prompts as Prompt[],
    async getPrompt(name, args, call) {
      if (!discovered.prompts.some((prompt) => prompt.name === name))
        throw invalidParams(`Prompt not found: ${name}`);
      return relayed(
        withDownstreamRelay(call?.relay, () => useCases.getPrompt(ctx, { ...target, name, arguments: args })),
      );
    },
    complete: (params) => relayed(useCases.complete(ctx, { ...target, params })),
    resourceTarget: async (uri) => ({ ...target, uri }),
  };
}
