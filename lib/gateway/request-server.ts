import {
  type CacheHint,
  type Implementation,
  type InputRequiredResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type ServerCapabilities,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import type { GatewayCall, McpEndpoint } from "./endpoint";
import { pageOf } from "./list-pages";
import { type modernTasks, TASKS_EXTENSION } from "./modern-tasks";
import { SESSION_TASKS_CAPABILITY, type sessionTasks } from "./sessions/session-tasks";

/** One page of a list answer, `{ [key]: items, nextCursor? }`, at the configured page size. */
export function paged<K extends string, T>(key: K, items: T[], cursor: string | undefined) {
  const page = pageOf(key, items, cursor, getEnv().MCP_LIST_PAGE_SIZE);
  return {
    [key]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  } as { [P in K]: T[] } & { nextCursor?: string };
}

// Lists change when integrations, capabilities or the key's scope do, and clients that listen hear of it at once;
// a client that does not may keep a listing this long. Each caller's lists are its own (its key's scope).
const LIST_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: "private" };
const CACHE_HINTS: ServerOptions["cacheHints"] = {
  "server/discover": LIST_CACHE,
  "tools/list": LIST_CACHE,
  "resources/list": LIST_CACHE,
  "resources/templates/list": LIST_CACHE,
  "prompts/list": LIST_CACHE,
  // A resource is the upstream server's: read again each time.
  "resources/read": { ttlMs: 0, cacheScope: "private" },
};

/** What the server of one request needs beyond its endpoint. */
export interface RequestServerOptions {
  /**
   * Runs a tools/call, prompts/get or resources/read of this request (`target` names the tool, prompt or resource):
   * `start` runs it with its signal and, where the client can hear it, the relay of what the upstream server says;
   * on 2026-07-28 it may answer that it needs the client's input first.
   */
  runCall<T extends Result>(
    call: ServerContext,
    target: string,
    start: (call: GatewayCall) => Promise<T>,
  ): Promise<T | InputRequiredResult>;
  /** Checks the requestState a 2026-07-28 client echoes (see ServerOptions.requestState). */
  requestState?: ServerOptions["requestState"];
  capabilities?: ServerCapabilities;
  /** The tool a 2026-07-28 tools/call names, with its input schema, for the SDK to check its routing headers. */
  calledTool?: { name: string; inputSchema: Record<string, unknown> };
  /** Tasks, for 2026-07-28 clients that take them (the extension is then offered). */
  tasks?: ReturnType<typeof modernTasks>;
  /** Tasks of 2025-11-25 clients: a tools/call with `params.task` starts one, and the tasks/* methods read them. */
  sessionTasks?: ReturnType<typeof sessionTasks>;
}

const taskParams = z.looseObject({ taskId: z.string() });
const listParams = z.looseObject({ cursor: z.string().optional() }).optional();

/**
 * The SDK's server for one request, its handlers on the protocol server underneath (`server`). It is the SDK's
 * high-level server only so that the SDK's handler checks a 2026-07-28 tools/call's Mcp-Param headers against
 * the `x-mcp-header` declarations of the called tool (SEP-2243) before it runs: this is how it learns that tool's
 * input schema (see checked-sdk.ts).
 */
class EndpointServer extends McpServer {
  readonly #calledTool: RequestServerOptions["calledTool"];

  constructor(info: Implementation, options: ServerOptions, calledTool: RequestServerOptions["calledTool"]) {
    super(info, options);
    this.#calledTool = calledTool;
  }

  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return name === this.#calledTool?.name ? this.#calledTool.inputSchema : undefined;
  }
}

/**
 * An SDK server for one request to an endpoint, either revision: its tools, resources, prompts and completion, and
 * logging (whose level a session keeps; without one it is accepted and nothing changes). Lists change when
 * integrations do: a client in a session hears of it on its GET stream, a 2026-07-28 client on its listen stream.
 */
export function requestServer(endpoint: McpEndpoint, options: RequestServerOptions): McpServer {
  const mcp = new EndpointServer(
    endpoint.info,
    {
      instructions: endpoint.instructions,
      cacheHints: CACHE_HINTS,
      ...(options.requestState ? { requestState: options.requestState } : {}),
    },
    options.calledTool,
  );
  const { server } = mcp;
  server.registerCapabilities({
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
    ...options.capabilities,
  });
  server.setRequestHandler("logging/setLevel", async () => ({}));
  server.setRequestHandler("tools/list", async (request) =>
    paged("tools", await endpoint.tools(), request.params?.cursor),
  );
  server.setRequestHandler("tools/call", (request, ctx) => {
    // A lone task-augmented call is answered before the SDK's server (sessions/task-call-answer.ts), which cannot.
    if (request.params.task !== undefined && options.sessionTasks)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        "A task-augmented tools/call is taken alone in its request body, not in a batch.",
      );
    return options.runCall(ctx, request.params.name, (call) => endpoint.callTool(request.params, call));
  });
  server.setRequestHandler("resources/list", async (request) =>
    paged("resources", await endpoint.resources(), request.params?.cursor),
  );
  server.setRequestHandler("resources/templates/list", async (request) =>
    paged("resourceTemplates", await endpoint.resourceTemplates(), request.params?.cursor),
  );
  server.setRequestHandler("resources/read", (request, ctx) =>
    options.runCall(ctx, request.params.uri, (call) => endpoint.readResource(request.params.uri, call)),
  );
  server.setRequestHandler("prompts/list", async (request) =>
    paged("prompts", await endpoint.prompts(), request.params?.cursor),
  );
  server.setRequestHandler("prompts/get", (request, ctx) =>
    options.runCall(ctx, request.params.name, (call) =>
      endpoint.getPrompt(request.params.name, request.params.arguments ?? {}, call),
    ),
  );
  server.setRequestHandler("completion/complete", (request) => endpoint.complete(request.params));
  const { tasks } = options;
  if (tasks) {
    server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
    server.setRequestHandler("tasks/get", { params: taskParams }, (params, ctx) =>
      tasks.get(ctx, params.taskId),
    );
    // The SDK takes inputResponses out of a request's params into its context, for every method.
    server.setRequestHandler("tasks/update", { params: taskParams }, (params, ctx) =>
      tasks.update(ctx, params.taskId, ctx.mcpReq.inputResponses ?? {}),
    );
    server.setRequestHandler("tasks/cancel", { params: taskParams }, (params, ctx) =>
      tasks.cancel(ctx, params.taskId),
    );
  }
  const { sessionTasks: legacyTasks } = options;
  if (legacyTasks) {
    server.registerCapabilities({ tasks: SESSION_TASKS_CAPABILITY });
    server.setRequestHandler("tasks/get", { params: taskParams }, (params) => legacyTasks.get(params.taskId));
    server.setRequestHandler("tasks/result", { params: taskParams }, (params, ctx) =>
      legacyTasks.result(params.taskId, ctx),
    );
    server.setRequestHandler("tasks/list", { params: listParams }, (params) =>
      legacyTasks.list(params?.cursor),
    );
    server.setRequestHandler("tasks/cancel", { params: taskParams }, (params) =>
      legacyTasks.cancel(params.taskId),
    );
  }
  return mcp;
}
