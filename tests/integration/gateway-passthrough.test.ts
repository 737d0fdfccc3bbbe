import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/mcp/integrations/[slug]/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import { connectPassThrough, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let everything: RunningFixture;
let echo: RunningFixture;
let remoteId: string;
let echoId: string;
const keys = { full: "", echoOnly: "", otherOrg: "" };
const clients: Client[] = [];

/** The SDK's client on one integration's pass-through endpoint, its requests going straight to the route. */
async function connect(slug: string, key: string): Promise<Client> {
  const client = await connectPassThrough(slug, key);
  clients.push(client);
  return client;
}

/** What an initialize request gets: "connected", or the refusal's status and message. */
async function refusal(slug: string, key: string): Promise<string> {
  const response = await POST(
    new Request(`http://localhost:3000/api/mcp/integrations/${slug}`, {
      method: "POST",
      headers: {
        host: "localhost:3000",
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    }),
    { params: Promise.resolve({ slug }) },
  );
  if (response.status === 200) return "connected";
  const body = (await response.json()) as { error: { message: string } };
  return `${response.status} ${body.error.message}`;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Pia", "Quin")) as [UserContext, UserContext];
  everything = await startEverything("streamableHttp");
  echo = await startFixture("echo");
  for (const [name, url] of [
    ["Remote", everything.url],
    ["Echo", echo.url],
  ] as const) {
    const integration = await createIntegration(handle.db, a, {
      source: "custom",
      name,
      transport: "streamable-http",
      url,
    });
    expect((await testIntegration(handle.db, a, integration.id)).ok).toBe(true);
    if (name === "Remote") remoteId = integration.id;
    else echoId = integration.id;
  }
  keys.full = (await createApiKey(handle.db, a, { name: "full" })).key;
  keys.echoOnly = (
    await createApiKey(handle.db, a, { name: "echo only", scope: { integrationIds: [echoId] } })
  ).key;
  keys.otherOrg = (await createApiKey(handle.db, b, { name: "other" })).key;
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all([everything?.stop(), echo?.stop()]);
  await handle?.close();
});

describe("an integration's pass-through endpoint", () => {
  it("lists the server's own tools under their own names, without prefixes or meta-tools", async () => {
    const client = await connect("remote", keys.full);
    expect(client.getServerVersion()?.name).toBe("remote");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("echo");
    expect(names.some((name) => name.startsWith("remote_") || name === "find_tools")).toBe(false);
  });

  it("calls a tool through the catalog, recorded in usage like a gateway call", async () => {
    const client = await connect("remote", keys.full);
    const result = await client.callTool({ name: "echo", arguments: { message: "passed through" } });
    expect(textOf(result)).toBe("Echo: passed through");
    const records = await usageRecordsOf(handle.db, a.orgId, "gateway", "remote_echo");
    expect(records.at(-1)).toMatchObject({ outcome: "ok", integrationId: remoteId });
    const unknown = await client.callTool({ name: "remote_echo", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe("Unknown tool: remote_echo");
    // The catalog still checks the arguments against the tool's schema.
    const invalid = await client.callTool({ name: "echo", arguments: { message: 42 } });
    expect(invalid.isError).toBe(true);
  });

  it.each([
    ["a tool", { name: "echo", arguments: { message: "lone" } }],
    ["a tool by its gateway name", { name: "remote_echo", arguments: {} }],
    ["arguments that break the tool's schema", { name: "echo", arguments: { message: 42 } }],
  ])(
    "answers a lone call without a session (%s) byte for byte as its SDK server answers it in a batch",
    async (_case, params) => {
      const post = async (body: unknown) => {
        const response = await POST(
          new Request("http://localhost:3000/api/mcp/integrations/remote", {
            method: "POST",
            headers: {
              host: "localhost:3000",
              authorization: `Bearer ${keys.full}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2025-11-25",
            },
            body: JSON.stringify(body),
          }),
          { params: Promise.resolve({ slug: "remote" }) },
        );
        return `${response.status} ${response.headers.get("content-type")} ${await response.text()}`;
      };
      const request = { jsonrpc: "2.0", id: 3, method: "tools/call", params };
      expect(await post(request)).toBe(await post([request]));
    },
  );

  it("relays the server's resources and prompts under their own URIs and names", async () => {
    const client = await connect("remote", keys.full);
    const [resource] = (await client.listResources()).resources;
    if (!resource) throw new Error("Everything lists no resource");
    const read = await client.readResource({ uri: resource.uri });
    expect(read.contents[0]?.uri).toBe(resource.uri);
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain("simple-prompt");
    const prompt = await client.getPrompt({ name: "simple-prompt" });
    expect(prompt.messages.length).toBeGreaterThan(0);
    await expect(client.getPrompt({ name: "no-such-prompt" })).rejects.toThrow(/Prompt not found/);
  });

  it("answers 404 for an integration the key may not reach: another scope, another organization, disabled, unknown", async () => {
    expect(await refusal("remote", keys.echoOnly)).toMatch(/^404 No integration "remote" for this key/);
    expect(await refusal("echo", keys.echoOnly)).toBe("connected");
    expect(await refusal("remote", keys.otherOrg)).toMatch(/^404 /);
    expect(await refusal("nothing-here", keys.full)).toMatch(/^404 /);
    await setIntegrationEnabled(handle.db, a, echoId, false);
    expect(await refusal("echo", keys.full)).toMatch(/^404 /);
    await setIntegrationEnabled(handle.db, a, echoId, true);
    expect(await refusal("echo", keys.full)).toBe("connected");
  });

  it("relays argument completion to a server that offers it, and answers none for one that does not", async () => {
    const suite = await startFixture("conformance");
    try {
      await createIntegration(handle.db, a, {
        source: "custom",
        name: "Suite",
        transport: "streamable-http",
        url: suite.url,
      });
      const client = await connect("suite", keys.full);
      const ref = { type: "ref/prompt" as const, name: "test_prompt_with_arguments" };
      const completed = await client.complete({ ref, argument: { name: "arg1", value: "par" } });
      expect(completed.completion.values).toEqual(["paris", "park", "party"]);
      const echoClient = await connect("echo", keys.full);
      const none = await echoClient.complete({
        ref: { type: "ref/prompt", name: "x" },
        argument: { name: "a", value: "b" },
      });
      expect(none.completion.values).toEqual([]);
    } finally {
      await suite.stop();
    }
  });

  it("discovers an integration never discovered before listing it", async () => {
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Fresh",
      transport: "streamable-http",
      url: echo.url,
    });
    const client = await connect("fresh", keys.full);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
  });

  it("refuses a request without a valid key with 401", async () => {
    expect(await refusal("remote", "sb_notakey0_nothing")).toMatch(/^401 /);
  });
});
