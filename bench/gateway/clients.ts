import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import type { ApiKeyRing } from "../api-key-ring";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
export type CallParams = { name: string; arguments: Record<string, unknown> };

/** A fetch that never sends the session id the gateway hands out: a client that keeps no session. */
export const withoutSession =
  (fetch: Fetch): Fetch =>
  (url, init) => {
    const headers = new Headers(init?.headers);
    headers.delete("mcp-session-id");
    return fetch(url, { ...init, headers });
  };

/** A fetch that sends every request with this key. */
const keyedFetch =
  (key: string): Fetch =>
  (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${key}`);
    return fetch(url, { ...init, headers });
  };

/** Makes the client offer an older protocol version in its handshake, as mcp-hub's bundled SDK does. */
function offerProtocolVersion(transport: StreamableHTTPClientTransport, version: string) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ("method" in message && message.method === "initialize" && message.params)
      message.params = { ...message.params, protocolVersion: version };
    return send(message, options);
  };
}

/** The MCP SDKs' clients a benchmark connects, all closed together at its end. */
export function benchClients() {
  const clients: { close(): Promise<void> }[] = [];

  async function connect(
    url: string,
    options: {
      ring?: ApiKeyRing;
      key?: string;
      sse?: boolean;
      stateless?: boolean;
      protocolVersion?: string;
    } = {},
  ) {
    const client = new Client({ name: "switchboard-bench", version: "1.0.0" });
    const keyed = options.key ? keyedFetch(options.key) : options.ring?.fetch;
    const fetchFn = options.stateless && keyed ? withoutSession(keyed) : keyed;
    const transport = options.sse
      ? new SSEClientTransport(new URL(url), { fetch: fetchFn })
      : new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn });
    if (options.protocolVersion && transport instanceof StreamableHTTPClientTransport)
      offerProtocolVersion(transport, options.protocolVersion);
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  return {
    connect,
    /**
     * The SDK's v2 client pinned to 2026-07-28: stateless, each call one POST carrying the protocol version and
     * the client's capabilities in its `_meta`, so any key of the ring may make it.
     */
    async connectModern(url: string, ring: ApiKeyRing) {
      const client = new ModernClient(
        { name: "switchboard-bench", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new ModernTransport(new URL(url), { fetch: ring.fetch }));
      clients.push(client);
      return client;
    },
    /**
     * Clients in sessions, one per key (a session belongs to the key that opened it), each call made by the client
     * of the key the ring hands out next, so the rate limit stays at its default and refuses nothing.
     */
    async connectSessions(url: string, keys: string[], ring: ApiKeyRing) {
      const byKey = new Map<string, Client>();
      for (const key of keys) byKey.set(key, await connect(url, { key }));
      return {
        callTool: (params: CallParams) => (byKey.get(ring.next()) as Client).callTool(params),
      };
    },
    closeAll: () => Promise.allSettled(clients.map((client) => client.close())),
  };
}

/**
 * A client reduced to one HTTP request per call, to compare what the app itself costs at each revision without
 * either SDK client's own time: a lone tools/call as a 2025-11-25 client without a session sends it, or as a
 * 2026-07-28 client does (its _meta envelope and routing headers).
 */
export function rawCaller(url: string, ring: ApiKeyRing, revision: "2025-11-25" | "2026-07-28") {
  let id = 0;
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientInfo": { name: "switchboard-bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return {
    async callTool(params: { name: string; arguments: Record<string, unknown> }) {
      const modern = revision === "2026-07-28";
      const response = await request(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${ring.next()}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": revision,
          ...(modern ? { "mcp-method": "tools/call", "mcp-name": params.name } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: "tools/call",
          params: modern ? { ...params, _meta: envelope } : params,
        }),
      });
      const answer = (await response.body.json()) as { result?: { isError?: boolean; content?: unknown } };
      if (response.statusCode !== 200 || !answer.result)
        throw new Error(`tools/call answered ${response.statusCode}: ${JSON.stringify(answer)}`);
      return answer.result;
    },
  };
}
