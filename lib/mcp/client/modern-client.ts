import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  Client as ModernClient,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  type CallToolResult,
  type CompleteRequest,
  type CompleteResult,
  ErrorCode,
  type GetPromptRequest,
  type GetPromptResult,
  type Implementation,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  McpError,
  type PaginatedRequest,
  type ReadResourceRequest,
  type ReadResourceResult,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "@/package.json" with { type: "json" };
import { currentRelay, relayFor } from "../relay/downstream-relay";
import { callersCapabilities } from "./callers-capabilities";
import { callToolAsModernTask, refusedForNoTasks } from "./modern-task-call";
import { type TaskSupport, taskSupportOn } from "./task-support-tap";
import type { UpstreamClient } from "./upstream-client";

const clientInfo = { name: "switchboard", version: packageJson.version };

/** The revision the v2 client is pinned to: a server that does not offer it is reached the 2025 way. */
export const MODERN_REVISION = "2026-07-28";

/**
 * The v2 client's failure as the 1.x client would have thrown it, so the pool reads it the same way
 * (`failure-kind.ts`): the server's JSON-RPC error as an `McpError` with its code and data, the client's own
 * timeout and closed connection as the 1.x client's, an HTTP status as a `StreamableHTTPError`.
 */
export function asLegacyError(error: unknown, timeoutMs: number): unknown {
  if (error instanceof ProtocolError) return new McpError(error.code, error.message, error.data);
  if (error instanceof SdkHttpError) return new StreamableHTTPError(error.status, error.message);
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout)
      return new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: timeoutMs });
    if (error.code === SdkErrorCode.ConnectionClosed)
      return new McpError(ErrorCode.ConnectionClosed, "Connection closed");
    // Whatever the client met on the way (a refused connection, a private address) is its cause.
    if (error.cause instanceof Error) return error.cause;
  }
  return error;
}

/**
 * A request's `_meta` as its caller would have sent it: the capabilities are the caller's (what its relay can
 * take: questions it cannot answer are not offered, so the server answers as it would to that caller), and log
 * messages are asked for at every level when the caller shows them (none otherwise). Keys the request already
 * carries (the trace context) are kept; the v2 client adds the revision and Switchboard's name.
 */
function withCallersMeta<P extends { _meta?: Record<string, unknown> }>(params: P): P {
  const relay = currentRelay();
  return {
    ...params,
    _meta: {
      [CLIENT_CAPABILITIES_META_KEY]: callersCapabilities(),
      ...(relay?.log ? { [LOG_LEVEL_META_KEY]: "debug" } : {}),
      ...params._meta,
    },
  };
}

/** A question the caller cannot take becomes an error the server can read. */
const unable = (what: string) =>
  new ProtocolError(ErrorCode.MethodNotFound, `The client of this call cannot take ${what} requests.`);

/**
 * A connection to a server at 2026-07-28, on the SDK's v2 client: stateless, every request carrying the revision
 * and Switchboard's capabilities. The server's questions during a call (its `input_required` answers) are asked
 * of the call's caller through its relay, and the call carries on with the answers; its progress and log
 * messages reach the caller too.
 */
export class ModernUpstreamClient implements UpstreamClient {
  readonly client: ModernClient;

  /** `onHttpFailure`: the server answered a request at the HTTP level, not in MCP (it may have moved on). */
  constructor(
    private readonly timeoutMs: number,
    private readonly onHttpFailure?: () => void,
  ) {
    this.client = new ModernClient(clientInfo, {
      capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: MODERN_REVISION } },
    });
    this.client.setRequestHandler("elicitation/create", (request, ctx) => {
      const elicit = relayFor(this)?.elicit;
      if (!elicit) throw unable("elicitation");
      // An input request's id is the server's name for it, which the caller is shown too.
      return elicit(request.params as never, ctx.mcpReq.signal, String(ctx.mcpReq.id)) as never;
    });
    this.client.setRequestHandler("sampling/createMessage", (request, ctx) => {
      const createMessage = relayFor(this)?.createMessage;
      if (!createMessage) throw unable("sampling");
      return createMessage(request.params as never, ctx.mcpReq.signal, String(ctx.mcpReq.id)) as never;
    });
    this.client.setRequestHandler("roots/list", (_request, ctx) => {
      const listRoots = relayFor(this)?.listRoots;
      if (!listRoots) throw unable("roots");
      return listRoots(ctx.mcpReq.signal, String(ctx.mcpReq.id)) as never;
    });
    this.client.setNotificationHandler("notifications/message", (notification) => {
      relayFor(this)?.log?.(notification.params as never);
    });
  }

  /**
   * Follows what the server says changed, on `subscriptions/listen` streams (the revision's only way to hear it):
   * its lists, on one stream opened now, and each resource subscribed to (`subscribeResource`), on one stream of
   * its own. Streams live as long as the connection; one that ends is not reopened (the catalog is read again
   * when a connection is next opened, and a client subscribes again).
   */
  followChanges(on: { listChanged?: () => void; resourceUpdated?: (uri: string) => void }) {
    this.resourceUpdated = on.resourceUpdated;
    this.client.setNotificationHandler("notifications/resources/updated", (notification) =>
      this.resourceUpdated?.(notification.params.uri),
    );
    const listChanged = on.listChanged;
    const capabilities = this.client.getServerCapabilities();
    const filter = {
      ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (!listChanged || Object.keys(filter).length === 0) return;
    for (const method of [
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
    ] as const)
      this.client.setNotificationHandler(method, () => listChanged());
    void this.client.listen(filter, { timeout: this.timeoutMs }).catch(() => {});
  }

  private resourceUpdated?: (uri: string) => void;
  private readonly subscribed = new Set<string>();

  get onclose() {
    return this.client.onclose;
  }

  set onclose(handler: (() => void) | undefined) {
    this.client.onclose = handler;
  }

  /** Runs a request on the v2 client, failing as the 1.x client would. */
  private async send<T>(request: () => Promise<unknown>): Promise<T> {
    try {
      // The two SDKs' types describe the same messages: what the v2 client checked is handed over as is.
      return (await request()) as T;
    } catch (error) {
      if (error instanceof SdkHttpError) this.onHttpFailure?.();
      throw asLegacyError(error, this.timeoutMs);
    }
  }

  getServerCapabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities() as ServerCapabilities | undefined;
  }

  getServerVersion(): Implementation | undefined {
    return this.client.getServerVersion() as Implementation | undefined;
  }

  /** What the server's listings say of its tools' task support (which the v2 client's codec deletes). */
  private get taskSupport(): TaskSupport | undefined {
    return this.client.transport ? taskSupportOn(this.client.transport) : undefined;
  }

  /**
   * Lists are read afresh each time: the catalog keeps them, and a list that changed must show. A tool keeps the
   * `execution.taskSupport` its server listed it with, read past the client's codec.
   */
  listTools(params?: PaginatedRequest["params"], options?: RequestOptions) {
    return this.send<ListToolsResult>(async () => {
      const support = this.taskSupport;
      const listed = await this.client.listTools(params, { ...options, cacheMode: "refresh" });
      return {
        ...listed,
        tools: listed.tools.map((tool) => {
          const taskSupport = support?.get(tool.name);
          return taskSupport ? { ...tool, execution: { taskSupport } } : tool;
        }),
      };
    });
  }

  /**
   * Tools the server runs only as tasks, known from its refusal of a plain call (-32021 naming the tasks
   * extension), for a server whose listing did not say so on this connection.
   */
  private readonly taskOnly = new Set<string>();

  listResources(params?: PaginatedRequest["params"], options?: RequestOptions) {
    return this.send<ListResourcesResult>(() =>
      this.client.listResources(params, { ...options, cacheMode: "refresh" }),
    );
  }

  listResourceTemplates(params?: PaginatedRequest["params"], options?: RequestOptions) {
    return this.send<ListResourceTemplatesResult>(() =>
      this.client.listResourceTemplates(params, { ...options, cacheMode: "refresh" }),
    );
  }

  listPrompts(params?: PaginatedRequest["params"], options?: RequestOptions) {
    return this.send<ListPromptsResult>(() =>
      this.client.listPrompts(params, { ...options, cacheMode: "refresh" }),
    );
  }

  /**
   * A plain call, or a task call (the tasks extension declared, and waited for here) for a tool that runs only as
   * a task: one the server refused a plain call of for want of the extension, then or before.
   */
  callTool(params: CallToolRequest["params"], _resultSchema?: undefined, options: RequestOptions = {}) {
    const asTask = () =>
      callToolAsModernTask(this.client, params, options, {
        timeoutMs: options.timeout ?? this.timeoutMs,
        meta: {
          [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
          [CLIENT_INFO_META_KEY]: clientInfo,
          ...(currentRelay()?.log ? { [LOG_LEVEL_META_KEY]: "debug" } : {}),
        },
      });
    return this.send<CallToolResult>(async () => {
      if (this.taskOnly.has(params.name) || this.taskSupport?.get(params.name) === "required")
        return asTask();
      try {
        return await this.client.callTool(withCallersMeta(params) as never, options);
      } catch (error) {
        if (!refusedForNoTasks(error)) throw error;
        this.taskOnly.add(params.name);
        return asTask();
      }
    });
  }

  readResource(params: ReadResourceRequest["params"], options?: RequestOptions) {
    return this.send<ReadResourceResult>(() =>
      this.client.readResource(withCallersMeta(params), { ...options, cacheMode: "bypass" }),
    );
  }

  getPrompt(params: GetPromptRequest["params"], options?: RequestOptions) {
    return this.send<GetPromptResult>(() => this.client.getPrompt(withCallersMeta(params), options));
  }

  complete(params: CompleteRequest["params"], options?: RequestOptions) {
    return this.send<CompleteResult>(() => this.client.complete(params as never, options));
  }

  /** A subscription is a listen stream for the one resource, open once the server acknowledged it. */
  async subscribeResource(params: { uri: string }, options?: RequestOptions): Promise<Record<string, never>> {
    if (this.subscribed.has(params.uri)) return {};
    const subscription = await this.send<{ honoredFilter: { resourceSubscriptions?: string[] } }>(() =>
      this.client.listen({ resourceSubscriptions: [params.uri] }, { timeout: this.timeoutMs, ...options }),
    );
    if (!subscription.honoredFilter.resourceSubscriptions?.includes(params.uri))
      throw new McpError(ErrorCode.InvalidRequest, `The server does not offer updates of ${params.uri}.`);
    this.subscribed.add(params.uri);
    return {};
  }

  ping(options?: RequestOptions) {
    return this.send(() => this.client.discover(options));
  }

  close() {
    return this.client.close();
  }
}
