import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as toolsRoute } from "@/app/api/mcp/tools/route";
import { GET as openApiRoute } from "@/app/api/openapi.json/route";
import { apiKeys } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { KNOWLEDGE_ONLY } from "@/lib/api-keys/key-scope";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { AppError } from "@/lib/errors";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startEverything } from "../fixtures/mcp/start-fixture";
import { connectGateway, GATEWAY_URL, gatewayFetch, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";

// REST routes are called with API keys; their session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let remoteServer: RunningFixture;
let everythingId: string;
let remoteId: string;
let transformId: string;
let lookupId: string;
let foreignIntegrationId: string;
let foreignCapabilityId: string;
const keys = { full: "", remoteOnly: "", knowledge: "", noBuiltins: "", lookupOnly: "", expired: "" };
const clients: Client[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Kim", "Lou")) as [UserContext, UserContext];
  // Two real MCP servers: Everything over stdio ("everything") and over Streamable HTTP ("remote").
  remoteServer = await startEverything("streamableHttp");
  const everything = await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" });
  const remote = await createIntegration(handle.db, a, {
    source: "custom",
    name: "Remote",
    transport: "streamable-http",
    url: remoteServer.url,
  });
  for (const { id } of [everything, remote]) expect((await testIntegration(handle.db, a, id)).ok).toBe(true);
  everythingId = everything.id;
  remoteId = remote.id;
  await createKnowledgeNode(handle.db, a, { name: "router-1", content: "Edge router in Frankfurt." });
  const capability = (namespace: string, action: string, code: string) =>
    createCapability(handle.db, a, { namespace, action, description: `${namespace} ${action}`, code });
  transformId = (
    await capability(
      "data",
      "transform",
      "return await tools.call('everything_echo', { message: 'nested' });",
    )
  ).id;
  lookupId = (
    await capability(
      "knowledge",
      "lookup",
      "return await tools.call('node_knowledge_retriever', { node_names: ['router-1'] });",
    )
  ).id;
  await capability("code", "other", "return 'other';");
  foreignIntegrationId = (
    await createIntegration(handle.db, b, {
      source: "custom",
      name: "Theirs",
      transport: "streamable-http",
      url: "http://no-such-host.invalid/mcp",
    })
  ).id;
  foreignCapabilityId = (
    await createCapability(handle.db, b, {
      namespace: "b",
      action: "own",
      description: "",
      code: "return 1;",
    })
  ).id;

  const key = async (name: string, input: { scope?: unknown; expiresInDays?: number } = {}) =>
    (await createApiKey(handle.db, a, { name, ...input })).key;
  keys.full = await key("full", { expiresInDays: 30 });
  keys.remoteOnly = await key("remote only", {
    scope: { integrationIds: [remoteId], capabilityIds: [transformId], builtins: false },
  });
  keys.knowledge = await key("knowledge", { scope: KNOWLEDGE_ONLY });
  keys.noBuiltins = await key("no built-ins", { scope: { builtins: false } });
  keys.lookupOnly = await key("lookup only", {
    scope: { integrationIds: [], capabilityIds: [lookupId], builtins: false },
  });
  const expired = await createApiKey(handle.db, a, { name: "expired", expiresInDays: 1 });
  await handle.db
    .update(apiKeys)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(apiKeys.id, expired.apiKey.id));
  keys.expired = expired.key;
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await remoteServer?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const context = { params: Promise.resolve({}) };

async function restTools(key: string) {
  const response = await toolsRoute(
    new Request("http://localhost:3000/api/mcp/tools", { headers: { authorization: `Bearer ${key}` } }),
    context,
  );
  const body = (await response.json()) as { tools?: { name: string }[]; error?: string };
  return { status: response.status, body, names: body.tools?.map((tool) => tool.name) ?? [] };
}

async function gateway(key: string): Promise<Client> {
  const client = await connectGateway(key);
  clients.push(client);
  return client;
}

const gatewayNames = async (key: string) =>
  (await (await gateway(key)).listTools()).tools.map((tool) => tool.name);

describe("API key expiry", () => {
  it("refuses an expired key with 401 on REST and the gateway, and accepts one that has not expired yet", async () => {
    const tools = await restTools(keys.expired);
    expect(tools.status).toBe(401);
    expect(tools.body.error).toMatch(/expired/);
    const invoke = await restInvoke(keys.expired, "node_knowledge_retriever", { node_names: ["router-1"] });
    expect(invoke.status).toBe(401);

    const initialize = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${keys.expired}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(initialize.status).toBe(401);
    expect(initialize.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await initialize.json()).toMatchObject({ error: { message: expect.stringMatching(/expired/) } });
    await expect(connectGateway(keys.expired)).rejects.toThrow();

    expect((await restTools(keys.full)).status).toBe(200);
  });
});

describe("API key scopes", () => {
  it("lists only the scoped integrations' tools and capabilities, on REST and the gateway alike", async () => {
    const rest = await restTools(keys.remoteOnly);
    expect(rest.status).toBe(200);
    expect(rest.names).toEqual(expect.arrayContaining(["remote_echo", "mcp__data__transform"]));
    const outside = (name: string) =>
      name.startsWith("everything_") ||
      ["node_knowledge_retriever", "knowledge_search", "mcp__code__other", "mcp__knowledge__lookup"].includes(
        name,
      );
    expect(rest.names.filter(outside)).toEqual([]);

    const listed = await gatewayNames(keys.remoteOnly);
    expect(listed.filter((name) => name !== "find_tools" && name !== "call_tool").sort()).toEqual(
      [...rest.names].sort(),
    );
    const found = await (await gateway(keys.remoteOnly)).callTool({
      name: "find_tools",
      arguments: { query: "echo", limit: 50 },
    });
    const foundNames = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(foundNames).toContain("remote_echo");
    expect(foundNames.filter(outside)).toEqual([]);

    // The unrestricted key of the same organization still sees everything, and the OpenAPI document follows.
    expect((await restTools(keys.full)).names).toEqual(
      expect.arrayContaining([
        "everything_echo",
        "remote_echo",
        "node_knowledge_retriever",
        "mcp__code__other",
      ]),
    );
    const openApi = await openApiRoute(
      new Request("http://localhost:3000/api/openapi.json", {
        headers: { authorization: `Bearer ${keys.remoteOnly}` },
      }),
      context,
    );
    const schemas = Object.keys(
      ((await openApi.json()) as { components: { schemas: Record<string, unknown> } }).components.schemas,
    ).join(" ");
    expect(schemas).toMatch(/remote_echo/);
    expect(schemas).not.toMatch(/everything_echo|node_knowledge_retriever/);
  });

  it("answers a tool outside the scope exactly as a tool that does not exist, on REST and the gateway", async () => {
    const unknown = await restInvoke(keys.remoteOnly, "no_such_tool", {});
    expect(unknown.status).toBe(400);
    for (const name of ["everything_echo", "mcp__code__other", "knowledge_search"]) {
      expect(await restInvoke(keys.remoteOnly, name, { message: "x", query: "x" })).toEqual(unknown);
    }
    expect((await restInvoke(keys.remoteOnly, "remote_echo", { message: "in scope" })).body).toMatchObject({
      content: [{ type: "text", text: "Echo: in scope" }],
    });

    const client = await gateway(keys.remoteOnly);
    expect(await client.callTool({ name: "everything_echo", arguments: { message: "x" } })).toEqual({
      isError: true,
      content: [{ type: "text", text: "Unknown tool: everything_echo" }],
    });
    expect(
      await client.callTool({
        name: "call_tool",
        arguments: { name: "everything_echo", arguments: { message: "x" } },
      }),
    ).toEqual({ isError: true, content: [{ type: "text", text: "Unknown tool: everything_echo" }] });
    expect(await client.callTool({ name: "mcp__code__other", arguments: {} })).toEqual({
      isError: true,
      content: [{ type: "text", text: "Capability not found: mcp__code__other" }],
    });
    expect(textOf(await client.callTool({ name: "remote_echo", arguments: { message: "ok" } }))).toBe(
      "Echo: ok",
    );

    // A disabled integration outside the scope is unknown too, not "disabled" (which would say it exists).
    await setIntegrationEnabled(handle.db, a, everythingId, false);
    try {
      expect(await restInvoke(keys.remoteOnly, "everything_echo", { message: "x" })).toEqual(unknown);
      expect((await restInvoke(keys.full, "everything_echo", { message: "x" })).status).toBe(403);
    } finally {
      await setIntegrationEnabled(handle.db, a, everythingId, true);
    }
  });

  it("passes through only the scoped integrations' resources and prompts on the gateway", async () => {
    const client = await gateway(keys.remoteOnly);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((resource) => resource.uri.startsWith("switchboard://remote/"))).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.every((t) => t.uriTemplate.startsWith("switchboard://remote/"))).toBe(true);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain("remote_args-prompt");
    expect(prompts.filter((prompt) => !prompt.name.startsWith("remote_"))).toEqual([]);

    // What the full key reads from "everything" is not found for the scoped key.
    const full = await gateway(keys.full);
    const document = (await full.listResources()).resources.find((r) =>
      r.uri.startsWith("switchboard://everything/"),
    );
    if (!document) throw new Error("the full key lists no resource of everything");
    await expect(full.readResource({ uri: document.uri })).resolves.toBeDefined();
    await expect(client.readResource({ uri: document.uri })).rejects.toThrow(/Resource not found/);
    await expect(
      client.getPrompt({ name: "everything_args-prompt", arguments: { city: "Porto" } }),
    ).rejects.toThrow(/Prompt not found/);
    const prompt = await client.getPrompt({ name: "remote_args-prompt", arguments: { city: "Porto" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "What's weather in Porto?" });

    const knowledge = await gateway(keys.knowledge);
    expect((await knowledge.listResources()).resources).toEqual([]);
    expect((await knowledge.listPrompts()).prompts).toEqual([]);
  });

  it("gives a read-only knowledge key the knowledge tools only, and a key without built-ins none of them", async () => {
    expect((await restTools(keys.knowledge)).names.sort()).toEqual([
      "knowledge_search",
      "node_knowledge_retriever",
    ]);
    expect((await gatewayNames(keys.knowledge)).sort()).toEqual([
      "call_tool",
      "find_tools",
      "knowledge_search",
      "node_knowledge_retriever",
    ]);
    const read = await restInvoke(keys.knowledge, "node_knowledge_retriever", { node_names: ["router-1"] });
    expect(read).toMatchObject({ status: 200, body: { success: true, total_nodes: 1 } });
    expect((await restInvoke(keys.knowledge, "everything_echo", { message: "x" })).body).toEqual({
      error: "unknown tool",
      code: "bad_request:unknown_tool",
    });

    const names = (await restTools(keys.noBuiltins)).names;
    expect(names).toContain("everything_echo");
    expect(names).not.toContain("node_knowledge_retriever");
    expect(
      (await restInvoke(keys.noBuiltins, "node_knowledge_retriever", { node_names: ["router-1"] })).body,
    ).toEqual({ error: "unknown tool", code: "bad_request:unknown_tool" });
    expect(
      await (await gateway(keys.noBuiltins)).callTool({
        name: "node_knowledge_retriever",
        arguments: { node_names: ["router-1"] },
      }),
    ).toEqual({ isError: true, content: [{ type: "text", text: "Unknown tool: node_knowledge_retriever" }] });
  });

  it("keeps the key's scope for the tools a capability calls: nested calls cannot escape it", async () => {
    // The same capabilities work with the unrestricted key.
    const full = await gateway(keys.full);
    expect((await full.callTool({ name: "mcp__data__transform", arguments: {} })).isError).toBeFalsy();
    expect((await full.callTool({ name: "mcp__knowledge__lookup", arguments: {} })).isError).toBeFalsy();

    // transform is in scope, but the everything_echo it calls is not.
    const escaped = await (await gateway(keys.remoteOnly)).callTool({
      name: "mcp__data__transform",
      arguments: {},
    });
    expect(escaped.isError).toBe(true);
    expect(textOf(escaped)).toMatch(/unknown tool/i);
    expect(textOf(escaped)).not.toMatch(/Echo: nested/);
    const rest = await restInvoke(keys.remoteOnly, "mcp__data__transform", {});
    expect(rest.status).toBe(500);
    expect(rest.body.details).toMatch(/unknown tool/i);

    // lookup is in scope, but the built-in it calls is not.
    const lookup = await (await gateway(keys.lookupOnly)).callTool({
      name: "mcp__knowledge__lookup",
      arguments: {},
    });
    expect(lookup.isError).toBe(true);
    expect(textOf(lookup)).toMatch(/unknown tool/i);
    expect(textOf(lookup)).not.toMatch(/Frankfurt/);
  });

  it("refuses scope ids that are not the organization's, naming the id", async () => {
    const refusal = async (scope: unknown) => {
      const error = await createApiKey(handle.db, a, { name: "bad", scope }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };
    const integration = await refusal({ integrationIds: [remoteId, foreignIntegrationId] });
    expect(integration.status).toBe(400);
    expect(integration.message).toBe(`"${foreignIntegrationId}" is not an integration of this organization.`);
    const capability = await refusal({ capabilityIds: [foreignCapabilityId] });
    expect(capability.message).toBe(`"${foreignCapabilityId}" is not a capability of this organization.`);
    expect((await refusal({ integrationIds: ["not-an-id"] })).message).toMatch(/"not-an-id"/);
    expect((await refusal({ integrationIds: "all" })).status).toBe(400);
    const keysOfA = await handle.db.select().from(apiKeys).where(eq(apiKeys.name, "bad"));
    expect(keysOfA).toEqual([]);
  });
});
