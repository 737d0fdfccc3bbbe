import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  type CompatibilityCallToolResult,
  type CompleteRequest,
  type CompleteResult,
  type ContentBlock,
  ErrorCode,
  type GetPromptResult,
  McpError,
  type ReadResourceResult,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { Span } from "@opentelemetry/api";
import { inSpan, outgoingTraceHeaders, SpanKind } from "@/lib/tracing/tracer";
import { McpConnectionError } from "../errors";
import type { IntegrationState } from "../integration-state";
import { currentRelay, relayedOn } from "../relay/downstream-relay";
import type { McpClientPort, McpConnectionConfig, ToolExecutionResult } from "../types";
import type { McpSession } from "./connect";
import { describeMcpFailure } from "./describe-error";
import { hideHostPaths } from "./host-paths";
import { scopedSignal } from "./scoped-signal";
import type { CallOptions, McpSessionPool } from "./session-pool";
import { callToolAsTask, refusedForNoTask } from "./task-call";
import { untilAborted } from "./until-aborted";
import type { UpstreamClient } from "./upstream-client";

// A server that keeps returning cursors must not keep us paging forever.
const MAX_PAGES = 100;

async function collectPages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

function textOf(content: ContentBlock[]): string | undefined {
  const text = content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join("\n")
    .trim();
  return text || undefined;
}

/** A result in today's shape; a server on the 2024-10-07 protocol may answer `{ toolResult }` instead. */
function isCallToolResult(result: CallToolResult | CompatibilityCallToolResult): result is CallToolResult {
  return Array.isArray(result.content);
}

/** Text content with this host's folders named instead of spelt out. */
function withoutHostPaths(content: ContentBlock[]): ContentBlock[] {
  return content.map((part) => (part.type === "text" ? { ...part, text: hideHostPaths(part.text) } : part));
}

/** The MCP client on the official SDK, over pooled sessions. */
export class SdkMcpClient implements McpClientPort {
  constructor(readonly pool: McpSessionPool) {}

  /**
   * One exchange with the integration's server, in a client span that names the server and how it went. Only an
   * exchange that changes nothing (`idempotent`) may be sent twice, when the first broke off; `fresh` runs it on a
   * session of its own, as a check of the server.
   */
  private run<T>(
    config: McpConnectionConfig,
    method: string,
    fn: (client: UpstreamClient) => Promise<T>,
    {
      signal,
      idempotent = true,
      fresh = false,
    }: { signal?: AbortSignal; idempotent?: boolean; fresh?: boolean } = {},
  ): Promise<T> {
    const attributes = {
      "mcp.method.name": method,
      "switchboard.integration.id": config.integrationId,
      "switchboard.mcp.transport": config.transport,
    };
    return inSpan(`mcp ${method}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const result = await this.exchange(config, span, fn, { method, idempotent, signal, fresh });
      span.setAttribute("switchboard.outcome", "ok");
      return result;
    });
  }

  /** The integration's state as this process knows it. */
  stateOf(integrationId: string): IntegrationState | undefined {
    return this.pool.stateOf(integrationId);
  }

  private async exchange<T>(
    config: McpConnectionConfig,
    span: Span,
    fn: (client: UpstreamClient) => Promise<T>,
    { fresh, ...options }: CallOptions & { fresh: boolean },
  ): Promise<T> {
    const { signal } = options;
    try {
      const onSession = (session: McpSession) => {
        const server = session.client.getServerVersion();
        if (server) span.setAttribute("mcp.server.name", server.name);
        return fn(session.client);
      };
      const work = fresh
        ? this.pool.withFreshSession(config, onSession, options)
        : this.pool.withSession(config, onSession, options);
      // A cancelled caller stops waiting for a session still connecting; the connect goes on for the others.
      return await (signal ? untilAborted(work, signal) : work);
    } catch (error) {
      span.setAttribute("switchboard.outcome", signal?.aborted ? "cancelled" : "failed");
      // The SDK reports a cancelled request as a timeout; the caller knows better.
      if (signal?.aborted)
        throw new McpConnectionError(
          config.integrationId,
          "The call was cancelled before the server answered.",
          error,
        );
      throw describeMcpFailure(error, config);
    }
  }

  async listFeatures(
    config: McpConnectionConfig,
    { signal, fresh }: { signal?: AbortSignal; fresh?: boolean } = {},
  ) {
    return this.run(
      config,
      "discover",
      async (client) => {
        const scoped = scopedSignal(signal);
        const options = { timeout: config.timeoutMs, signal: scoped.signal };
        const capabilities = client.getServerCapabilities() ?? {};
        // Kept as the server listed them (the SDK's types), so every surface relays them unchanged.
        const [tools, resources, prompts] = await Promise.all([
          capabilities.tools
            ? collectPages(async (cursor) => {
                const page = await client.listTools(cursor ? { cursor } : {}, options);
                return { items: page.tools, nextCursor: page.nextCursor };
              })
            : [],
          capabilities.resources
            ? collectPages(async (cursor) => {
                const page = await client.listResources(cursor ? { cursor } : {}, options);
                return { items: page.resources, nextCursor: page.nextCursor };
              })
            : [],
          capabilities.prompts
            ? collectPages(async (cursor) => {
                const page = await client.listPrompts(cursor ? { cursor } : {}, options);
                return { items: page.prompts, nextCursor: page.nextCursor };
              })
            : [],
        ]).finally(scoped.release);
        return { tools, resources, prompts };
      },
      { signal, fresh },
    );
  }

  async executeTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<ToolExecutionResult> {
    const result = await this.run(
      config,
      "tools/call",
      (client) => {
        const scoped = scopedSignal(signal);
        // The trace context also goes in _meta, for servers on transports without headers (stdio).
        const traced = outgoingTraceHeaders();
        const meta = traced.traceparent ? { _meta: traced } : {};
        const relay = currentRelay();
        // A server that reports progress keeps the call alive; the caller sees the progress if it can.
        const progress = relay?.progress ? { onprogress: relay.progress, resetTimeoutOnProgress: true } : {};
        const params = { name, arguments: args, ...meta };
        const options = { timeout: config.timeoutMs, signal: scoped.signal, ...progress };
        return relayedOn(client, async () => {
          // At 2025-11-25 a tool that runs only as a task is called as one (tasks are the client's to ask for
          // there); callers see a plain call.
          const tasks = client instanceof Client ? client : undefined;
          const plain = await client.callTool(params, undefined, options).catch((error: unknown) => {
            if (tasks && refusedForNoTask(error)) return undefined;
            throw error;
          });
          if (!tasks || (plain && !refusedForNoTask(plain))) return plain as NonNullable<typeof plain>;
          return callToolAsTask(tasks, params, options);
        }).finally(scoped.release);
      },
      { signal, idempotent: false },
    );
    const content = isCallToolResult(result) ? result.content : [];
    const structuredContent = isCallToolResult(result) ? result.structuredContent : undefined;
    if (result.isError) {
      // A local server's errors may name files of this host.
      const shown = config.transport === "stdio" ? withoutHostPaths(content) : content;
      return {
        isError: true,
        content: shown,
        structuredContent,
        errorMessage: textOf(shown) ?? "Tool execution failed",
      };
    }
    return { isError: false, content, ...(structuredContent ? { structuredContent } : {}) };
  }

  readResource(config: McpConnectionConfig, uri: string): Promise<ReadResourceResult> {
    return this.run(config, "resources/read", (client) =>
      client.readResource({ uri }, { timeout: config.timeoutMs }),
    );
  }

  listResourceTemplates(config: McpConnectionConfig): Promise<ResourceTemplate[]> {
    return this.run(config, "resources/templates/list", async (client) => {
      if (!client.getServerCapabilities()?.resources) return [];
      return collectPages(async (cursor) => {
        const page = await client.listResourceTemplates(cursor ? { cursor } : {}, {
          timeout: config.timeoutMs,
        });
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      });
    });
  }

  complete(config: McpConnectionConfig, params: CompleteRequest["params"]): Promise<CompleteResult> {
    return this.run(config, "completion/complete", async (client) => {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return client.complete(params, { timeout: config.timeoutMs });
    });
  }

  subscribeResource(config: McpConnectionConfig, uri: string): Promise<void> {
    return this.run(config, "resources/subscribe", async (client) => {
      if (!client.getServerCapabilities()?.resources?.subscribe)
        throw new McpError(ErrorCode.InvalidRequest, "This server offers no resource subscriptions.");
      await client.subscribeResource({ uri }, { timeout: config.timeoutMs });
    });
  }

  getPrompt(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult> {
    return this.run(config, "prompts/get", (client) =>
      client.getPrompt({ name, arguments: args }, { timeout: config.timeoutMs }),
    );
  }
}
