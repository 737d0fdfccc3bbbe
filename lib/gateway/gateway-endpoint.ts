import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  ListToolsResult,
  Prompt,
  Tool,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import type { CatalogIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { listToolSet, listTools } from "@/lib/tools/catalog";
import { type OrgCatalog, orgCatalog } from "@/lib/tools/catalog-cache";
import { allows } from "@/lib/tools/scope";
import { claimUniqueNames, integrationToolName } from "@/lib/tools/tool-names";
import type { ToolDescriptor } from "@/lib/tools/types";
import type { GatewayCaller } from "./caller";
import { callCatalogTool } from "./catalog-call";
import type { GatewayCall, McpEndpoint } from "./endpoint";
import { runsAsTask } from "./integration-endpoint";
import { internalError, invalidParams, resourceNotFound, upstreamError } from "./mcp-errors";
import { CALL_TOOL, callToolArgs, FIND_TOOLS, findTools, findToolsArgs, metaTools } from "./meta-tools";
import { mirrorsArguments } from "./modern-lone-call";
import { gatewayResourceUri, parseGatewayResourceUri } from "./resource-names";

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

function asJsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** What the gateway's tools/call answers: find_tools and call_tool, or a tool of the catalog by its name. */
export async function gatewayToolCall(
  db: Database,
  ctx: GatewayCaller,
  params: CallToolRequestParams,
  call: GatewayCall,
): Promise<CallToolResult> {
  const { name } = params;
  const args = params.arguments ?? {};
  if (name === FIND_TOOLS) {
    const parsed = findToolsArgs.safeParse(args);
    if (!parsed.success) return errorResult(parsed.error.issues.map((issue) => issue.message).join("; "));
    const tools = await listTools(db, ctx, { scope: ctx.toolScope }).catch((error: unknown) => {
      throw internalError(error, "find_tools could not list the tools");
    });
    const found = findTools(tools, parsed.data.query, parsed.data.limit);
    return asJsonResult({
      tools: found.map(({ source: _source, ...tool }) => tool),
    });
  }
  if (name === CALL_TOOL) {
    const parsed = callToolArgs.safeParse(args);
    if (!parsed.success) return errorResult(parsed.error.issues.map((issue) => issue.message).join("; "));
    return callCatalogTool(db, ctx, parsed.data.name, parsed.data.arguments, call);
  }
  return callCatalogTool(db, ctx, name, args, call);
}

// Every field MCP defines for a tool, as its server listed it (the catalog keeps only those).
const toolListOf = (tools: readonly Omit<ToolDescriptor, "source">[]): ListToolsResult => ({
  tools: tools.map(({ source: _source, ...tool }: Omit<ToolDescriptor, "source"> & { source?: unknown }) => ({
    ...tool,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
  })),
});

const metaToolsOnly = toolListOf(metaTools);
const metaToolsOnlySerialized = new Blob([JSON.stringify(metaToolsOnly)]);

/**
 * What tools/list answers the key: the meta-tools, then (unless the key lists only those) every tool in its scope.
 * Made once per listing of the catalog.
 */
export async function gatewayToolList(db: Database, ctx: GatewayCaller): Promise<ListToolsResult> {
  if (ctx.metaToolsOnly) return metaToolsOnly;
  const listing = await listToolSet(db, ctx, { scope: ctx.toolScope });
  return listing.once("gateway", (tools) => toolListOf([...metaTools, ...tools]));
}

const metaToolsByName = new Map(metaTools.map((tool) => [tool.name, tool]));

// Once per version of an organization's catalog: the names of its tools that mirror arguments in headers.
const mirroringByCatalog = new WeakMap<OrgCatalog, Set<string>>();

function mirroringNames(catalog: OrgCatalog): Set<string> {
  let names = mirroringByCatalog.get(catalog);
  if (!names) {
    names = new Set();
    for (const integration of catalog.integrations)
      for (const tool of integration.discovered?.tools ?? [])
        if (mirrorsArguments(tool.inputSchema)) names.add(integrationToolName(integration.slug, tool.name));
    for (const capability of catalog.capabilities)
      if (mirrorsArguments(capability.parametersSchema))
        names.add(capabilityToolName(capability.namespace, capability.action));
    mirroringByCatalog.set(catalog, names);
  }
  return names;
}

/** The key's tools by name (the meta-tools included), made once per listing of the catalog. */
async function gatewayToolsByName(db: Database, ctx: GatewayCaller) {
  if (ctx.metaToolsOnly) return metaToolsByName;
  const listing = await listToolSet(db, ctx, { scope: ctx.toolScope });
  return listing.once(
    "gateway-by-name",
    (tools) => new Map([...metaTools, ...tools].map((tool) => [tool.name, tool] as const)),
  );
}

/**
 * The same serialized and encoded, to answer a lone tools/list without doing either again: made once per listing
 * of the catalog (without keeping the result object, which only the SDK server needs).
 */
export async function serializedGatewayToolList(db: Database, ctx: GatewayCaller): Promise<Blob> {
  if (ctx.metaToolsOnly) return metaToolsOnlySerialized;
  const listing = await listToolSet(db, ctx, { scope: ctx.toolScope });
  return listing.once(
    "gateway-serialized",
    (tools) => new Blob([JSON.stringify(toolListOf([...metaTools, ...tools]))]),
  );
}

/**
 * The aggregated gateway for one caller, scoped to the key's organization and the key's own scope: the catalog's
 * tools (or only the meta-tools, for keys set that way), and the enabled integrations' resources and prompts,
 * renamed so each leads back to its integration.
 */
export function gatewayEndpoint(db: Database, ctx: GatewayCaller): McpEndpoint {
  let integrations: Promise<CatalogIntegration[]> | undefined;
  // Resources and prompts come only from here, so an integration outside the key's scope is simply not there.
  const enabledIntegrations = () => {
    integrations ??= orgCatalog(db, ctx.orgId).then((catalog) =>
      catalog.integrations.filter((row) => row.enabled && allows(ctx.toolScope.integrationIds, row.id)),
    );
    return integrations;
  };
  const integrationOf = async (uri: string) => {
    const parsed = parseGatewayResourceUri(uri);
    const integration = parsed && (await enabledIntegrations()).find((row) => row.slug === parsed.slug);
    return parsed && integration ? { integration, upstreamUri: parsed.upstreamUri } : undefined;
  };
  const useCases = mcpUseCases(db);

  let prompts: Promise<{
    entries: Map<string, { integration: CatalogIntegration; prompt: string }>;
    list: Prompt[];
  }>;
  const promptsByName = () => {
    prompts ??= enabledIntegrations().then((rows) => {
      const entries = new Map<string, { integration: CatalogIntegration; prompt: string }>();
      const list: Prompt[] = [];
      for (const integration of rows) {
        const named = claimUniqueNames(
          integration.discovered?.prompts ?? [],
          (prompt) => ({ ...prompt, name: integrationToolName(integration.slug, prompt.name) }),
          { taken: (name) => entries.has(name) },
        );
        for (const { item, listed } of named) {
          entries.set(listed.name, { integration, prompt: item.name });
          list.push(listed as Prompt);
        }
      }
      return { entries, list };
    });
    return prompts;
  };
  const promptEntry = async (name: string) => {
    const entry = (await promptsByName()).entries.get(name);
    if (!entry) throw invalidParams(`Prompt not found: ${name}`);
    return entry;
  };

  return {
    info: { name: "switchboard", title: "Switchboard", version: "0.1.0" },
    instructions:
      "The organization's tools, resources and prompts from every connected MCP server. Use find_tools to search for a tool and call_tool to run one by name.",
    tools: async () => (await gatewayToolList(db, ctx)).tools,
    async mirroringSchemaOf(name) {
      // Known from the catalog at once for nearly every tool; the listing is read only for the few that do.
      if (!mirroringNames(await orgCatalog(db, ctx.orgId)).has(name)) return undefined;
      const schema = (await gatewayToolsByName(db, ctx)).get(name)?.inputSchema;
      return schema && mirrorsArguments(schema) ? schema : undefined;
    },
    // The catalog's name of an integration's tool is <slug>_<tool>, so the tool is found by it here.
    runsAsTask: async (name) =>
      (await enabledIntegrations()).some((integration) =>
        integration.discovered?.tools.some(
          (tool) => integrationToolName(integration.slug, tool.name) === name && runsAsTask(tool),
        ),
      ),
    serializedTools: () => serializedGatewayToolList(db, ctx),
    callTool: (params, call) => gatewayToolCall(db, ctx, params, call),
    resources: async () =>
      (await enabledIntegrations()).flatMap((integration) =>
        (integration.discovered?.resources ?? []).map((resource) => ({
          ...resource,
          uri: gatewayResourceUri(integration.slug, resource.uri),
        })),
      ),
    async resourceTemplates() {
      const rows = await enabledIntegrations();
      // Asked live (templates are not in the stored discovery); a failing server only loses its own templates.
      const listed = await Promise.allSettled(
        rows.map((row) => useCases.listResourceTemplates(ctx, { integrationId: row.id })),
      );
      return listed.flatMap((result, index) => {
        const row = rows[index] as CatalogIntegration;
        if (result.status === "rejected") return [];
        return result.value.map((template) => ({
          ...template,
          uriTemplate: gatewayResourceUri(row.slug, template.uriTemplate),
        }));
      });
    },
    async readResource(uri, call) {
      const target = await integrationOf(uri);
      if (!target) throw resourceNotFound(uri);
      const read = await withDownstreamRelay(call?.relay, () =>
        useCases.readResource(ctx, { integrationId: target.integration.id, uri: target.upstreamUri }),
      ).catch((error: unknown) => {
        throw upstreamError(error);
      });
      // Relayed as read (text or base64 blob, with its mimeType and _meta); only the URI is renamed.
      return {
        ...read,
        contents: read.contents.map((item) => ({
          ...item,
          uri: gatewayResourceUri(target.integration.slug, item.uri),
        })),
      };
    },
    prompts: async () => (await promptsByName()).list,
    async getPrompt(name, args, call) {
      const entry = await promptEntry(name);
      // Relayed as rendered: every role and content type (text, image, audio, embedded resource, resource link).
      return withDownstreamRelay(call?.relay, () =>
        useCases.getPrompt(ctx, { integrationId: entry.integration.id, name: entry.prompt, arguments: args }),
      ).catch((error: unknown) => {
        throw upstreamError(error);
      });
    },
    // Completion of a prompt's or a resource template's argument goes to the integration it leads back to, under
    // the names that integration gave them.
    async complete(params: CompleteRequestParams) {
      const { ref } = params;
      let target: { integration: CatalogIntegration; ref: typeof ref };
      if (ref.type === "ref/prompt") {
        const entry = await promptEntry(ref.name);
        target = { integration: entry.integration, ref: { ...ref, name: entry.prompt } };
      } else {
        const found = await integrationOf(ref.uri);
        if (!found) throw invalidParams(`Resource template not found: ${ref.uri}`);
        target = { integration: found.integration, ref: { ...ref, uri: found.upstreamUri } };
      }
      return useCases
        .complete(ctx, { integrationId: target.integration.id, params: { ...params, ref: target.ref } })
        .catch((error: unknown) => {
          throw upstreamError(error);
        });
    },
    async resourceTarget(uri) {
      const found = await integrationOf(uri);
      return found && { integrationId: found.integration.id, uri: found.upstreamUri };
    },
  };
}
