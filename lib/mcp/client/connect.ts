import { mkdir } from "node:fs/promises";
import { StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "@/package.json" with { type: "json" };
import { McpError as DomainMcpError } from "../errors";
import { relayFor } from "../relay/downstream-relay";
import type { McpConnectionConfig } from "../types";
import { ConnectTimeoutError, withDeadline } from "./deadline";
import { asLegacyError, ModernUpstreamClient } from "./modern-client";
import { modernSession } from "./modern-session";
import { connectModernStdio } from "./modern-stdio";
import { createGuardedRequest } from "./network-guard";
import { forgetRevision, type RevisionKey, rememberedRevision, rememberRevision } from "./revision-memory";
import { singleAnswerFetch } from "./single-answer-fetch";
import type { UpstreamClient } from "./upstream-client";

export { ConnectTimeoutError } from "./deadline";

export interface McpSession {
  client: UpstreamClient;
  /** Which revisions the connection speaks: 2026-07-28 (`modern`, on the v2 client) or 2025-11-25 and older. */
  era: "modern" | "legacy";
  /** The transport actually used: a Streamable HTTP integration may have fallen back to SSE. */
  transport: "streamable-http" | "sse" | "stdio";
  /**
   * What names this session to the server on each request, if anything does: Streamable HTTP's Mcp-Session-Id, or
   * the older SSE transport's message endpoint (which holds its session).
   */
  sessionId(): string | undefined;
  /** True once the server showed it no longer serves this session (the SSE transport's stream broke). */
  readonly stale: boolean;
  close(): Promise<void>;
}

const clientInfo = { name: "switchboard", version: packageJson.version };

// The SDK gives a stdio server 4 s to exit before it kills it.
const EXIT_WAIT_MS = 5000;
// How much longer than its timeout a connection may take to settle before it is given up.
const DEADLINE_GRACE_MS = 1000;
// How long a closing session waits for the server to acknowledge its end (HTTP DELETE), at most.
const TERMINATE_WAIT_MS = 1000;

/**
 * A client that takes the server's elicitation and sampling requests and log messages, and hands each to the call
 * it belongs to; a caller that cannot answer (a REST call, a gateway client that did not declare it) makes it an
 * error the server can read.
 */
function relayingClient(config: McpConnectionConfig): Client {
  const client = new Client(clientInfo, {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
  });
  const unable = (what: string) =>
    new McpError(ErrorCode.MethodNotFound, `The client of this call cannot take ${what} requests.`);
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const elicit = relayFor(client)?.elicit;
    if (!elicit) throw unable("elicitation");
    return elicit(request.params, extra.signal);
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => {
    const createMessage = relayFor(client)?.createMessage;
    if (!createMessage) throw unable("sampling");
    return createMessage(request.params, extra.signal);
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    relayFor(client)?.log?.(notification.params);
  });
  for (const schema of [
    ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    PromptListChangedNotificationSchema,
  ])
    client.setNotificationHandler(schema, () => config.onListChanged?.());
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    config.onResourceUpdated?.(notification.params.uri),
  );
  return client;
}

async function connectWith(transport: Transport, config: McpConnectionConfig, kind: McpSession["transport"]) {
  const client = relayingClient(config);
  const seconds = Math.round(config.timeoutMs / 1000);
  // Settles when the transport is gone: for stdio, once the child process has exited (or never started).
  const gone = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  // The older SSE transport's session lives as long as its stream: once that breaks (the server restarted, say),
  // the session is gone, even if the stream reconnects. (The client chains this with its own handler.)
  let stale = false;
  if (transport instanceof SSEClientTransport)
    transport.onerror = (error) => {
      if (error instanceof SseError) stale = true;
    };
  try {
    await withDeadline(
      client.connect(transport, { timeout: config.timeoutMs }),
      config.timeoutMs,
      `The MCP server did not finish the handshake within ${seconds} s.`,
    );
  } catch (error) {
    // A failed start is reported once its process is gone, so the pool's count of processes stays true.
    await transport.close().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
    clearTimeout(timer);
    throw error;
  }
  return {
    client,
    era: "legacy",
    transport: kind,
    sessionId: () => {
      if (transport instanceof StreamableHTTPClientTransport) return transport.sessionId;
      return transport instanceof SSEClientTransport ? "its message endpoint" : undefined;
    },
    get stale() {
      return stale;
    },
    close: async () => {
      // The server is told the session ended (Streamable HTTP's DELETE), so it frees it too; briefly, as it may be
      // the reason the session is closed.
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId)
        await withDeadline(transport.terminateSession(), TERMINATE_WAIT_MS, "").catch(() => {});
      await client.close();
    },
  } satisfies McpSession;
}

// Servers that predate Streamable HTTP answer its POST with one of these; the spec says to try SSE then.
const FALLBACK_STATUSES = new Set([400, 404, 405]);

type ModernFetch = NonNullable<ConstructorParameters<typeof ModernHttpTransport>[1]>["fetch"];

/** Opens a session: stdio as a child process, HTTP as Streamable HTTP with a fallback to the older SSE transport. */
export async function openMcpSession(config: McpConnectionConfig): Promise<McpSession> {
  if (config.transport === "stdio") return openStdioSession(config);
  const url = new URL(config.url);
  const guarded = singleAnswerFetch(
    createGuardedRequest(config.allowPrivateNetwork, Object.keys(config.headers)),
  );
  const fetch = config.oauth ? config.oauth.authorize(guarded) : guarded;
  const requestInit = { headers: config.headers };
  if (config.transport === "sse") {
    return connectWith(new SSEClientTransport(url, { requestInit, fetch }), config, "sse");
  }
  const server = { integrationId: config.integrationId, url: config.url, owner: config.oauth?.owner };
  // The newest revision both speak: 2026-07-28 if the server offers it (asked with server/discover, or known from
  // the last connection), otherwise the 2025 handshake, as a 2025 client would.
  if (rememberedRevision(server)?.kind !== "legacy") {
    const modern = await connectModern(url, { fetch, requestInit }, config, server);
    if (modern) return modern;
  }
  const legacy = await connectLegacyHttp(url, { fetch, requestInit }, config);
  rememberRevision(server, { kind: "legacy" });
  return legacy;
}

/**
 * A stdio server as a child process, at the newest revision both speak, as over HTTP: 2026-07-28 if it offers it
 * (asked on a probe process, or known from the last connection), otherwise the 2025 handshake.
 */
async function openStdioSession(config: Extract<McpConnectionConfig, { transport: "stdio" }>) {
  // A server that keeps data gets its folder before it starts (it may not create it itself).
  if (config.dataFolder) await mkdir(config.dataFolder, { recursive: true });
  const env = { ...inheritedEnv(), ...config.env };
  const server = { integrationId: config.integrationId, command: config.command, args: config.args };
  if (rememberedRevision(server)?.kind !== "legacy") {
    const modern = await connectModernStdio(config, env, server);
    if (modern) return modern;
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env,
    stderr: "ignore",
  });
  try {
    return await connectWith(transport, config, "stdio");
  } catch (error) {
    // A server that answers the 2025 handshake with an error of its own may have moved on to 2026-07-28: the
    // next connection asks it again.
    const answered =
      error instanceof McpError &&
      error.code !== ErrorCode.RequestTimeout &&
      error.code !== ErrorCode.ConnectionClosed;
    if (answered) forgetRevision(server);
    throw error;
  }
}

interface HttpOptions {
  fetch: typeof fetch;
  requestInit: RequestInit;
}

/**
 * A connection at 2026-07-28 on the v2 client, or undefined when the server does not speak it (its answer to
 * server/discover said so, or it failed otherwise: the 2025 handshake then says what is wrong, as it always has).
 * A server that does not answer in time is not tried again the 2025 way.
 */
async function connectModern(
  url: URL,
  http: HttpOptions,
  config: Extract<McpConnectionConfig, { url: string }>,
  server: RevisionKey,
): Promise<McpSession | undefined> {
  const upstream = new ModernUpstreamClient(config.timeoutMs, () => forgetRevision(server));
  const transport = new ModernHttpTransport(url, {
    fetch: http.fetch as ModernFetch,
    requestInit: http.requestInit,
  });
  const prior = rememberedRevision(server);
  const seconds = Math.round(config.timeoutMs / 1000);
  try {
    await withDeadline(
      upstream.client.connect(transport, { timeout: config.timeoutMs, ...(prior ? { prior } : {}) }),
      // The client's own timeout comes first and says more (no answer to the probe); this one catches the rest.
      config.timeoutMs + DEADLINE_GRACE_MS,
      `The MCP server did not finish the handshake within ${seconds} s.`,
    );
  } catch (error) {
    forgetRevision(server);
    await upstream.close().catch(() => {});
    // Our own refusals (no OAuth tokens, a connection to renew) and the server refusing the credentials say
    // nothing of the revision, and asking again the 2025 way would only repeat them.
    const ours = domainErrorIn(error);
    if (ours) throw ours;
    const read = asLegacyError(error, config.timeoutMs);
    if (read instanceof StreamableHTTPError && (read.code === 401 || read.code === 403)) throw read;
    // A server that does not answer in time is not asked again: that would only double the wait.
    if (
      read instanceof ConnectTimeoutError ||
      (read instanceof McpError && read.code === ErrorCode.RequestTimeout)
    )
      throw read;
    return undefined;
  }
  return modernSession(upstream, config, server, "streamable-http");
}

function domainErrorIn(error: unknown): DomainMcpError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof DomainMcpError) return current;
    current = current.cause;
  }
  return undefined;
}

/** Streamable HTTP at 2025-11-25 on the 1.x client, with a fallback to the older SSE transport. */
async function connectLegacyHttp(
  url: URL,
  { fetch, requestInit }: HttpOptions,
  config: Extract<McpConnectionConfig, { url: string }>,
): Promise<McpSession> {
  try {
    return await connectWith(
      new StreamableHTTPClientTransport(url, { requestInit, fetch }),
      config,
      "streamable-http",
    );
  } catch (error) {
    if (
      !(error instanceof StreamableHTTPError && error.code !== undefined && FALLBACK_STATUSES.has(error.code))
    ) {
      throw error;
    }
    try {
      return await connectWith(new SSEClientTransport(url, { requestInit, fetch }), config, "sse");
    } catch {
      throw error; // the Streamable HTTP failure says more than the fallback's
    }
  }
}

// A stdio server gets PATH and locale, not the app's secrets.
function inheritedEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "SystemRoot"];
  return Object.fromEntries(
    keep.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key] as string]])),
  );
}
