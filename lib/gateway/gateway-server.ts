import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolRequest, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { Database } from "@/db/client";
import { getEnv } from "@/lib/env";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import type { CatalogIntegration } from "@/lib/mcp/repository";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { callTool, listToolSet, listTools } from "@/lib/tools/catalog";
import { orgCatalog } from "@/lib/tools/catalog-cache";
import { allows } from "@/lib/tools/scope";
import { claimUniqueNames, integrationToolName } from "@/lib/tools/tool-names";
import type { ToolDescriptor } from "@/lib/tools/types";
import type { GatewayCaller } from "./caller";
import { pageOf } from "./list-pages";
import { internalError, invalidParams, passedThrough, upstreamError } from "./mcp-errors";
import { CALL_TOOL, callToolArgs, FIND_TOOLS, findTools, findToolsArgs, metaTools } from "./meta-tools";
import { gatewayResourceUri, parseGatewayResourceUri } from "./resource-names";
import { relayForRequest } from "./sessions/request-relay";
import type { GatewaySession } from "./sessions/session-store";
import { serveSubscriptions } from "./sessions/subscriptions";

type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

function asJsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * How one call runs: cancelled by its signal; in a session, relaying what the upstream server says during it,
 * and on an upstream session of the client's own when `upstreamSession` names it.
 */
export type GatewayCall = {
  signal: AbortSignal;
  relay?: ReturnType<typeof relayForRequest>;
  upstreamSession?: string;
};

/** A call handled by an SDK server: its signal, and its session's relay. */
export const sdkCall = (extra: RequestExtra, session?: GatewaySession): GatewayCall => ({
  signal: extra.signal,
  relay: relayForRequest(session, extra),
});

/**
 * A catalog call as an MCP result: every failure is an error result the client can read, never a crash. In a
 * session, what the upstream server says during the call (progress, questions, log messages) reaches the client.
 */
export async function callCatalogTool(
  db: Database,
  ctx: GatewayCaller,
  name: string,
  args: Record<string, unknown>,
  { signal, relay, upstreamSession }: GatewayCall,
): Promise<CallToolResult> {
  const result = await withDownstreamRelay(relay, () =>
    callTool(db, ctx, name, args, { surface: "gateway", scope: ctx.toolScope, signal, upstreamSession }),
  );
  await relay?.sent();
  // The server's own MCP error reaches the client as it sent it.
  if (result.upstreamError) throw passedThrough(result.upstreamError);
  const content: CallToolResult["content"] = result.content.length
    ? result.content
    : [{ type: "text", text: result.errorMessage ?? (result.isError ? "The tool reported an error." : "") }];
  return {
    content,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

/** What the gateway's tools/call answers: find_tools and call_tool, or a tool of the catalog by its name. */
export async function gatewayToolCall(
  db: Database,
  ctx: GatewayCaller,
  params: CallToolRequest["params"],
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
      tools: found.map(({ name: toolName, description, inputSchema }) => ({
        name: toolName,
        description,
        inputSchema,
      })),
    });
  }
  if (name === CALL_TOOL) {
    const parsed = callToolArgs.safeParse(args);
    if (!parsed.success) return errorResult(parsed.error.issues.map((issue) => issue.message).join("; "));
    return callCatalogTool(db, ctx, parsed.data.name, parsed.data.arguments, call);
  }
  return callCatalogTool(db, ctx, name, args, call);
}

const toolListOf = (tools: readonly Omit<ToolDescriptor, "source">[]): ListToolsResult => ({
  tools: tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema: inputSchema as { type: "object" },
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

// Unless given one, the SDK makes a JSON Schema validator (a new Ajv) for every server: most of the cost of a
// server per request. The gateway's servers never use it (what they ask clients is checked upstream), so they
// share one.
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** One page of a list answer, `{ [key]: items, nextCursor? }`, at the configured page size. */
export function paged<K extends string, T>(key: K, items: T[], cursor: string | undefined) {
  const page = pageOf(key, items, cursor, getEnv().MCP_LIST_PAGE_SIZE);
  return {
    [key]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  } as { [P in K]: T[] } & { nextCursor?: string };
}

/** An SDK server for one request, offering tools, resources, prompts and logging (whose level it accepts). */
export function requestServer(
  info: { name: string; title: string; version: string },
  instructions: string,
  more: ServerCapabilities = {},
) {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(info, {
    jsonSchemaValidator: sharedValidator,
    // Lists change when integrations do; a client in a session hears of it on its GET stream.
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      ...more,
    },
    instructions,
  });
  // Without a session there is nowhere to keep a level, so it is accepted and logging stays as is (a session's
  // server keeps it: see serveInSession).
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  return server;
}

/**
 * One MCP server for one request, scoped to the API key's organization and the key's own scope: the catalog's
 * tools (or only the meta-tools, for keys set that way), and the enabled integrations' resources and prompts,
 * renamed so each leads back to its integration.
 */
export function createGatewayServer(db: Database, ctx: GatewayCaller, session?: GatewaySession): Server {
  const server = requestServer(
    { name: "switchboard", title: "Switchboard", version: "0.1.0" },
    "The organization's tools, resources and prompts from every connected MCP server. Use find_tools to search for a tool and call_tool to run one by name.",
    { completions: {} },
  );
  let integrations: Promise<CatalogIntegration[]> | undefined;
  // Resources and prompts come only from here, so an integration outside the key's scope is simply not there.
  const enabledIntegrations = () => {
    integrations ??= orgCatalog(db, ctx.orgId).then((catalog) =>
      catalog.integrations.filter((row) => row.enabled && allows(ctx.toolScope.integrationIds, row.id)),
    );
    return integrations;
  };
  const useCases = mcpUseCases(db);

  server.setRequestHandler(ListToolsRequestSchema, async (request) =>
    paged("tools", (await gatewayToolList(db, ctx)).tools, request.params?.cursor),
  );

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    gatewayToolCall(db, ctx, request.params, sdkCall(extra, session)),
  );

  server.setRequestHandler(ListResourcesRequestSchema, async (request) =>
    paged(
      "resources",
      (await enabledIntegrations()).flatMap((integration) =>
        (integration.discovered?.resources ?? []).map((resource) => ({
          ...resource,
          uri: gatewayResourceUri(integration.slug, resource.uri),
        })),
      ),
      request.params?.cursor,
    ),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
    const rows = await enabledIntegrations();
    // Asked live (templates are not in the stored discovery); a failing server only loses its own templates.
    const listed = await Promise.allSettled(
      rows.map((row) => useCases.listResourceTemplates(ctx, { integrationId: row.id })),
    );
    const templates = listed.flatMap((result, index) => {
      const row = rows[index] as CatalogIntegration;
      if (result.status === "rejected") return [];
      return result.value.map((template) => ({
        ...template,
        uriTemplate: gatewayResourceUri(row.slug, template.uriTemplate),
      }));
    });
    return paged("resourceTemplates", templates, request.params?.cursor);
  });

  serveSubscriptions(server, db, ctx, session, async (uri) => {
    const parsed = parseGatewayResourceUri(uri);
    const integration = parsed && (await enabledIntegrations()).find((row) => row.slug === parsed.slug);
    return parsed && integration ? { integrationId: integration.id, uri: parsed.upstreamUri } : undefined;
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const parsed = parseGatewayResourceUri(request.params.uri);
    const integration = parsed && (await enabledIntegrations()).find((row) => row.slug === parsed.slug);
    if (!parsed || !integration) throw invalidParams(`Resource not found: ${request.params.uri}`);
    const read = await useCases
      .readResource(ctx, { integrationId: integration.id, uri: parsed.upstreamUri })
      .catch((error: unknown) => {
        throw upstreamError(error);
      });
    // Relayed as read (text or base64 blob, with its mimeType and _meta); only the URI is renamed.
    return {
      ...read,
      contents: read.contents.map((item) => ({
        ...item,
        uri: gatewayResourceUri(integration.slug, item.uri),
      })),
    };
  });

  const promptsByName = async () => {
    const entries = new Map<string, { integration: CatalogIntegration; prompt: string }>();
    const prompts = [];
    for (const integration of await enabledIntegrations()) {
      const named = claimUniqueNames(
        integration.discovered?.prompts ?? [],
        (prompt) => ({
          ...prompt,
          name: integrationToolName(integration.slug, prompt.name),
          description: prompt.description,
        }),
        { taken: (name) => entries.has(name) },
      );
      for (const { item, listed } of named) {
        entries.set(listed.name, { integration, prompt: item.name });
        prompts.push(listed);
      }
    }
    return { entries, prompts };
  };

  server.setRequestHandler(ListPromptsRequestSchema, async (request) =>
    paged("prompts", (await promptsByName()).prompts, request.params?.cursor),
  );

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const entry = (await promptsByName()).entries.get(request.params.name);
    if (!entry) throw invalidParams(`Prompt not found: ${request.params.name}`);
    const result = await useCases
      .getPrompt(ctx, {
        integrationId: entry.integration.id,
        name: entry.prompt,
        arguments: request.params.arguments ?? {},
      })
      .catch((error: unknown) => {
        throw upstreamError(error);
      });
    // Relayed as rendered: every role and content type (text, image, audio, embedded resource, resource link).
    return result;
  });

  // Completion of a prompt's or a resource template's argument goes to the integration it leads back to, under
  // the names that integration gave them.
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref } = request.params;
    let target: { integration: CatalogIntegration; ref: typeof ref } | undefined;
    if (ref.type === "ref/prompt") {
      const entry = (await promptsByName()).entries.get(ref.name);
      if (!entry) throw invalidParams(`Prompt not found: ${ref.name}`);
      target = { integration: entry.integration, ref: { ...ref, name: entry.prompt } };
    } else {
      const parsed = parseGatewayResourceUri(ref.uri);
      const integration = parsed && (await enabledIntegrations()).find((row) => row.slug === parsed.slug);
      if (!parsed || !integration) throw invalidParams(`Resource template not found: ${ref.uri}`);
      target = { integration, ref: { ...ref, uri: parsed.upstreamUri } };
    }
    return useCases
      .complete(ctx, { integrationId: target.integration.id, params: { ...request.params, ref: target.ref } })
      .catch((error: unknown) => {
        throw upstreamError(error);
      });
  });

  return server;
}
