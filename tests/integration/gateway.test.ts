import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET } from "@/app/api/mcp/route";
import type { DatabaseHandle } from "@/db/client";
import { mcpIntegrations, organizations } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { runCli } from "@/lib/cli/run";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import { connectGateway, GATEWAY_URL, gatewayRoute, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const route = gatewayRoute;
const ENDPOINT = GATEWAY_URL;

let handle: DatabaseHandle & { db: DatabaseHandle["db"] };
let a: UserContext;
let b: UserContext;
let keyA: string;
let metaKeyA: string;
let keyB: string;
const clients: Client[] = [];
let rich: RunningFixture;

async function connect(key: string): Promise<Client> {
  const client = await connectGateway(key);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Ada", "Bo")) as [UserContext, UserContext];
  const everything = await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" });
  await testIntegration(handle.db, a, everything.id);
  // A server whose prompt and resource hold every role and content type MCP has.
  rich = await startFixture("rich-content");
  const richIntegration = await createIntegration(handle.db, a, {
    source: "custom",
    name: "Rich",
    transport: "streamable-http",
    url: rich.url,
  });
  expect((await testIntegration(handle.db, a, richIntegration.id)).ok).toBe(true);
  await createIntegration(handle.db, a, {
    source: "custom",
    name: "Gone",
    transport: "streamable-http",
    url: "http://no-such-host.invalid/mcp",
    timeoutMs: 2000,
  });
  keyA = (await createApiKey(handle.db, a, { name: "gateway" })).key;
  metaKeyA = (await createApiKey(handle.db, a, { name: "meta", metaToolsOnly: true })).key;
  keyB = (await createApiKey(handle.db, b, { name: "other org" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await rich?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("the MCP gateway", () => {
  it("lists the meta-tools, built-ins and integration tools under unique, valid names", async () => {
    const client = await connect(keyA);
    expect(client.getServerVersion()?.name).toBe("switchboard");
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.slice(0, 2)).toEqual(["find_tools", "call_tool"]);
    expect(names).toEqual(
      expect.arrayContaining(["node_knowledge_retriever", "everything_echo", "everything_get-sum"]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    await expect(client.ping()).resolves.toEqual({});
    await expect(client.setLoggingLevel("debug")).resolves.toEqual({});
  });

  it("routes tool calls by name, and answers every failure as an error result", async () => {
    const client = await connect(keyA);
    expect(textOf(await client.callTool({ name: "everything_echo", arguments: { message: "hi" } }))).toBe(
      "Echo: hi",
    );
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown).toMatchObject({ isError: true, content: [{ type: "text", text: "Unknown tool: nope" }] });
    const bad = await client.callTool({ name: "everything_get-sum", arguments: { a: "x" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/a|b/);
  });

  it("finds tools by keywords and calls them through call_tool", async () => {
    const client = await connect(keyA);
    const found = await client.callTool({ name: "find_tools", arguments: { query: "echo", limit: 3 } });
    const tools = (found.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools[0]?.name).toBe("everything_echo");
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object" });
    const called = await client.callTool({
      name: "call_tool",
      arguments: { name: "everything_echo", arguments: { message: "via meta" } },
    });
    expect(textOf(called)).toBe("Echo: via meta");
    const missingName = await client.callTool({ name: "call_tool", arguments: {} });
    expect(missingName).toMatchObject({ isError: true });
  });

  it("lists only the meta-tools to a key set that way, which can still call everything", async () => {
    const client = await connect(metaKeyA);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["find_tools", "call_tool"]);
    const called = await client.callTool({
      name: "call_tool",
      arguments: { name: "everything_echo", arguments: { message: "small context" } },
    });
    expect(textOf(called)).toBe("Echo: small context");
  });

  it("passes resources and prompts through under names that lead back to their integration", async () => {
    const client = await connect(keyA);
    const { resources } = await client.listResources();
    const document = resources.find((r) =>
      r.uri.startsWith("switchboard://everything/demo://resource/static/document/"),
    );
    if (!document) throw new Error("no static document listed");
    const read = await client.readResource({ uri: document.uri });
    expect(read.contents[0]?.uri).toBe(document.uri);
    const first = read.contents[0];
    expect(first && "text" in first ? first.text.length : 0).toBeGreaterThan(0);
    // The unreachable integration only loses its own templates.
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.every((t) => t.uriTemplate.startsWith("switchboard://everything/"))).toBe(true);
    expect(resourceTemplates.length).toBeGreaterThan(0);
    await expect(client.readResource({ uri: "switchboard://nothing/x://y" })).rejects.toThrow(
      /Resource not found/,
    );

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("everything_args-prompt");
    const prompt = await client.getPrompt({ name: "everything_args-prompt", arguments: { city: "Porto" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "What's weather in Porto?" });
    await expect(client.getPrompt({ name: "args-prompt" })).rejects.toThrow(/Prompt not found/);
  });

  it("lists an integration added from the CLI in the very first tools/list, before any discovery", async () => {
    const upstream = await startEverything("streamableHttp");
    try {
      const [org] = await handle.db
        .select({ slug: organizations.slug })
        .from(organizations)
        .where(eq(organizations.id, a.orgId));
      const added = await runCli(
        ["integration:add", "--org", org?.slug ?? "", "--name", "Fresh", "--url", upstream.url],
        async () => ({ db: handle.db, close: async () => {} }),
        { out: () => {}, err: () => {} },
      );
      expect(added).toBe(0);
      const [row] = await handle.db
        .select({ discovered: mcpIntegrations.discovered })
        .from(mcpIntegrations)
        .where(eq(mcpIntegrations.slug, "fresh"));
      expect(row?.discovered).toBeNull();
      const names = (await (await connect(keyA)).listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("fresh_echo");
    } finally {
      await getMcpClient().pool.closeAll();
      await upstream.stop();
    }
  });

  it("shows another organization's key nothing of this one", async () => {
    const client = await connect(keyB);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.some((name) => name.startsWith("everything_"))).toBe(false);
    expect(await client.callTool({ name: "everything_echo", arguments: { message: "x" } })).toMatchObject({
      isError: true,
      content: [{ text: "Unknown tool: everything_echo" }],
    });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await expect(
      client.readResource({
        uri: "switchboard://everything/demo://resource/static/document/architecture.md",
      }),
    ).rejects.toThrow(/Resource not found/);
    await expect(
      client.getPrompt({ name: "everything_args-prompt", arguments: { city: "x" } }),
    ).rejects.toThrow(/Prompt not found/);
  });
});

/** The SDK's client straight to an upstream server, to compare the gateway's answers with. */
async function connectDirect(url: string): Promise<Client> {
  const client = new Client({ name: "direct-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/**
 * Everything stamps its dynamic resources with the time of day (to the second), so a gateway answer is compared
 * with direct answers on either side of it, asked again when those two straddle a second.
 */
async function besideDirect<T>(direct: () => Promise<T>, viaGateway: () => Promise<T>) {
  for (let attempt = 1; ; attempt++) {
    const before = await direct();
    const relayed = await viaGateway();
    const after = await direct();
    if (JSON.stringify(before) === JSON.stringify(after) || attempt === 5)
      return { upstream: before, relayed };
  }
}

const bytesOf = (item: { blob: string } | { text: string } | undefined) =>
  item && "blob" in item ? Buffer.from(item.blob, "base64") : undefined;

describe("the gateway relays resources and prompts as the upstream sent them", () => {
  let everything: RunningFixture;
  let everythingDirect: Client;
  let richDirect: Client;

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    everythingDirect = await connectDirect(everything.url);
    richDirect = await connectDirect(rich.url);
  }, 30_000);

  afterAll(async () => {
    await everythingDirect?.close();
    await richDirect?.close();
    await everything?.stop();
  });

  it("reads Everything's blob resource byte for byte, renaming only its URI", async () => {
    const client = await connect(keyA);
    const uri = "demo://resource/dynamic/blob/1";
    const { upstream, relayed } = await besideDirect(
      () => everythingDirect.readResource({ uri }),
      () => client.readResource({ uri: `switchboard://everything/${uri}` }),
    );
    const [item] = upstream.contents;
    if (!item || !("blob" in item)) throw new Error("Everything sent no blob");
    expect(relayed.contents).toEqual([{ ...item, uri: `switchboard://everything/${uri}` }]);
    expect(bytesOf(relayed.contents[0])).toEqual(bytesOf(item));
    expect(bytesOf(item)?.length).toBeGreaterThan(0);
  });

  it("renders Everything's prompt with an embedded blob resource exactly as Everything does", async () => {
    const client = await connect(keyA);
    const args = { resourceType: "Blob", resourceId: "3" };
    const { upstream, relayed } = await besideDirect(
      () => everythingDirect.getPrompt({ name: "resource-prompt", arguments: args }),
      () => client.getPrompt({ name: "everything_resource-prompt", arguments: args }),
    );
    expect(upstream.messages.map((message) => message.content.type)).toEqual(["text", "resource"]);
    expect(relayed.messages).toEqual(upstream.messages);
  });

  it("keeps every role and content type of a prompt, and every item of a read, with their metadata", async () => {
    const client = await connect(keyA);
    const upstreamPrompt = await richDirect.getPrompt({ name: "mixed" });
    const relayedPrompt = await client.getPrompt({ name: "rich_mixed" });
    expect(relayedPrompt.messages).toEqual(upstreamPrompt.messages);
    expect(relayedPrompt.description).toBe(upstreamPrompt.description);
    expect(relayedPrompt.messages.map(({ role, content }) => `${role}:${content.type}`)).toEqual([
      "user:text",
      "assistant:text",
      "user:image",
      "assistant:audio",
      "user:resource",
      "assistant:resource_link",
    ]);

    const uri = "fixture://rich/bytes.bin";
    const gatewayUri = `switchboard://rich/${uri}`;
    const { resources } = await client.listResources();
    expect(resources.find((resource) => resource.uri === gatewayUri)).toEqual({
      uri: gatewayUri,
      name: "bytes.bin",
      mimeType: "application/octet-stream",
      size: 256,
    });
    const upstreamRead = await richDirect.readResource({ uri });
    const relayedRead = await client.readResource({ uri: gatewayUri });
    expect(relayedRead.contents).toEqual(upstreamRead.contents.map((item) => ({ ...item, uri: gatewayUri })));
    expect(relayedRead.contents[0]).toMatchObject({ _meta: { "fixture/bytes": 256 } });
    expect(bytesOf(relayedRead.contents[0])).toEqual(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
  });
});

describe("the gateway's HTTP surface", () => {
  const initialize = (headers: Record<string, string>) =>
    route(
      new Request(ENDPOINT, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${keyA}`,
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      }),
    );

  it("refuses foreign Host and Origin headers (DNS rebinding), and accepts localhost", async () => {
    expect((await initialize({ host: "evil.example.com", origin: "http://evil.example.com" })).status).toBe(
      403,
    );
    expect((await initialize({ host: "localhost:3000", origin: "http://evil.example.com" })).status).toBe(
      403,
    );
    const ok = await initialize({ host: "127.0.0.1:3000", origin: "http://localhost:3000" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: "switchboard" } } });
  });

  it("asks for an API key with 401 and WWW-Authenticate, and a session id for GET and DELETE", async () => {
    const anonymous = await initialize({ host: "localhost", authorization: "" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await anonymous.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/API key/) },
    });
    const revoked = await initialize({
      host: "localhost",
      authorization: "Bearer sb_aaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    });
    expect(revoked.status).toBe(401);
    for (const method of ["GET", "DELETE"]) {
      const request = new Request(ENDPOINT, {
        method,
        headers: { host: "localhost", authorization: `Bearer ${keyA}`, accept: "text/event-stream" },
      });
      const response = await (method === "GET" ? GET : DELETE)(request, { params: Promise.resolve({}) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { message: expect.stringMatching(/Mcp-Session-Id/) },
      });
    }
  });
});
