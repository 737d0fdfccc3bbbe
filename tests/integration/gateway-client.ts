import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  DELETE as passThroughDelete,
  GET as passThroughGet,
  POST as passThroughPost,
} from "@/app/api/mcp/integrations/[slug]/route";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { type Database, type DatabaseHandle, useProcessDatabase } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";

export const GATEWAY_URL = "http://localhost:3000/api/mcp";

const handlers = { POST, GET, DELETE };
const passThroughHandlers = { POST: passThroughPost, GET: passThroughGet, DELETE: passThroughDelete };

/** The gateway's route handler for the request's method, as the running app would call it. */
export const gatewayRoute = (request: Request) => {
  const handler = handlers[request.method as keyof typeof handlers];
  if (!handler) return Promise.resolve(new Response(null, { status: 405 }));
  return handler(request, { params: Promise.resolve({}) });
};

/** A fetch that goes straight to the route handler, with the Host header a server always sees. */
export function gatewayFetch(url: string | URL, init?: RequestInit) {
  const request = new Request(url, init);
  request.headers.set("host", new URL(url).host);
  return gatewayRoute(request);
}

/** Makes the route handlers use this test's database. */
export function useDatabase(handle: DatabaseHandle | undefined) {
  useProcessDatabase(handle);
}

/** The SDK's own client over Streamable HTTP, connected to the gateway with an API key. */
export async function connectGateway(key: string): Promise<Client> {
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(GATEWAY_URL), {
      fetch: gatewayFetch,
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** The SDK's own client on one integration's pass-through endpoint, with an API key. */
export async function connectPassThrough(slug: string, key: string): Promise<Client> {
  const client = new Client({ name: "passthrough-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost:3000/api/mcp/integrations/${slug}`), {
      fetch: passThroughFetch(slug) as typeof fetch,
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

export const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");

/** A fetch that goes straight to an integration's pass-through route, as the running app would call it. */
export function passThroughFetch(slug: string) {
  return (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("host", new URL(url).host);
    const handler = passThroughHandlers[request.method as keyof typeof passThroughHandlers];
    if (!handler) return Promise.resolve(new Response(null, { status: 405 }));
    return handler(request, { params: Promise.resolve({ slug }) });
  };
}

/** Adds each running server as an integration of the user's organization, and checks it answers. */
export async function addIntegrations(
  db: Database,
  owner: UserContext,
  servers: Record<string, { url: string }>,
): Promise<void> {
  for (const [name, server] of Object.entries(servers)) {
    const integration = await createIntegration(db, owner, {
      source: "custom",
      name,
      transport: "streamable-http",
      url: server.url,
    });
    const checked = await testIntegration(db, owner, integration.id);
    if (!checked.ok) throw new Error(`${name} did not answer: ${JSON.stringify(checked)}`);
  }
}

/** The `_meta` envelope of a 2026-07-28 request, with the client capabilities it declares. */
export const envelope = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

/** A 2026-07-28 request written by hand, with the routing headers the revision asks for. */
export async function modernRequest(
  bearer: string,
  method: string,
  params: Record<string, unknown>,
  { url = GATEWAY_URL, fetch = gatewayFetch, name = String(params.name ?? params.taskId) } = {},
) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bearer}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (text.match(/^data: (\{.*"id":1.*)$/m)?.[1] ?? "{}");
  return { status: response.status, headers: response.headers, body: JSON.parse(json) };
}
