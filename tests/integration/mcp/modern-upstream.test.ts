import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as toolsRoute } from "@/app/api/mcp/tools/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { rememberedRevision } from "@/lib/mcp/client/revision-memory";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import { type RunningFixture, startFixture, startScriptedModel } from "../../fixtures/mcp/start-fixture";
import {
  connectGateway,
  connectPassThrough,
  envelope,
  modernRequest,
  passThroughFetch,
  textOf,
  useDatabase,
} from "../gateway-client";
import { registerOwners } from "../org-users";
import { restInvoke } from "../rest-client";
import { scriptedChatTurn } from "../scripted-chat";
import { createTestDatabase } from "../test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// REST and the gateway authenticate with API keys; the chat's user is this test's owner.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const model = await startScriptedModel();
process.env.OPENAI_BASE_URL = `${model.baseUrl}/v1`;

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let key: string;
let modern: RunningFixture;
let integrationId: string;
let localId: string;

// The same server as a local process, on the v2 package's stdio server: it too refuses the 2025 handshake.
const LOCAL = {
  command: process.execPath,
  args: ["--import", "tsx", path.resolve("tests/fixtures/mcp/stdio-modern.ts")],
};

const SAID = "This is a simple text response for testing.";

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Mo")) as [UserContext];
  signedIn.ctx = owner;
  key = (await createApiKey(handle.db, owner, { name: "modern" })).key;
  // A server on the SDK's v2 package that speaks only 2026-07-28: it refuses the 2025 handshake.
  modern = await startFixture("conformance-modern");
  integrationId = (
    await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Modern",
      transport: "streamable-http",
      url: modern.url,
    })
  ).id;
  localId = (
    await createIntegration(
      handle.db,
      owner,
      { source: "custom", name: "Local", transport: "stdio", ...LOCAL },
      { operator: true },
    )
  ).id;
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await Promise.all([modern?.stop(), model.stop()]);
  useDatabase(undefined);
  await handle?.close();
});

describe("an integration whose server speaks only 2026-07-28", () => {
  it("is added and checked: its tools are discovered at that revision", async () => {
    const checked = await testIntegration(handle.db, owner, integrationId);
    expect(checked.ok).toBe(true);
    // Remembered, so the next connection adopts the server's discover answer without asking again.
    expect(rememberedRevision({ integrationId, url: modern.url })).toMatchObject({
      kind: "modern",
      discover: { supportedVersions: expect.arrayContaining(["2026-07-28"]) },
    });
  });

  it("lists and calls its tools over REST", async () => {
    const tools = await restTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["modern_test_simple_text", "modern_test_tool_with_progress"]),
    );
    const invoked = await restInvoke(key, "modern_test_simple_text");
    expect(invoked).toEqual({ status: 200, body: { content: [{ type: "text", text: SAID }] } });
    // A question the REST caller cannot answer is refused to the server, which says so in its result.
    // The server sees the REST caller's capabilities (none: it cannot answer questions), not Switchboard's, and
    // refuses a tool that needs one with its own error, which the caller gets.
    const refused = await restInvoke(key, "modern_test_missing_capability");
    expect(refused.status).toBe(500);
    expect(refused.body.upstream_error).toMatchObject({ code: -32021 });
  });

  it("refuses a 2026-07-28 call needing a capability its client did not declare with 400 and -32021, on both endpoints", async () => {
    const viaGateway = await modernRequest(key, "tools/call", {
      name: "modern_test_missing_capability",
      arguments: {},
      _meta: envelope(),
    });
    const viaPassThrough = await modernRequest(
      key,
      "tools/call",
      { name: "test_missing_capability", arguments: {}, _meta: envelope() },
      { url: "http://localhost:3000/api/mcp/integrations/modern", fetch: passThroughFetch("modern") },
    );
    for (const refused of [viaGateway, viaPassThrough]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
    }
  });

  it.each([
    ["Streamable HTTP", "modern"],
    ["stdio", "local"],
  ])(
    "shows a 2026-07-28 client the server's own question, by the server's name for it, on both endpoints (%s)",
    async (_transport, slug) => {
      const endpoints = [
        { name: `${slug}_test_input_required_result_elicitation` },
        {
          name: "test_input_required_result_elicitation",
          url: `http://localhost:3000/api/mcp/integrations/${slug}`,
          fetch: passThroughFetch(slug),
        },
      ];
      for (const { name, ...through } of endpoints) {
        const call = (more: Record<string, unknown> = {}) =>
          modernRequest(
            key,
            "tools/call",
            { name, arguments: {}, _meta: envelope({ elicitation: {} }), ...more },
            through,
          );
        const asked = (await call()).body.result;
        expect(asked.resultType).toBe("input_required");
        expect(Object.keys(asked.inputRequests)).toEqual(["user_name"]);
        expect(asked.inputRequests.user_name).toMatchObject({
          method: "elicitation/create",
          params: { message: "What is your name?" },
        });
        const answered = await call({
          inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
          requestState: asked.requestState,
        });
        expect(textOf(answered.body.result)).toBe("Hello, Ada!");
      }
    },
  );

  it("hears its list changes on a listen stream, and the catalog shows the new tool", async () => {
    expect((await restInvoke(key, "modern_test_trigger_tool_change")).status).toBe(200);
    let names: string[] = [];
    for (let tries = 0; tries < 50 && !names.includes("modern_test_added_tool_1"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      names = (await restTools()).map((tool) => tool.name);
    }
    expect(names).toContain("modern_test_added_tool_1");
  });

  it("runs its tools from the integration page's tool runner", async () => {
    const result = await runIntegrationTool(handle.db, owner, integrationId, "test_simple_text", {});
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(SAID);
  });

  it("lets a capability call its tools", async () => {
    await createCapability(handle.db, owner, {
      namespace: "modern",
      action: "relay",
      description: "Calls the 2026-07-28 server",
      code: "return { said: await tools.call('modern_test_simple_text', {}) };",
    });
    const invoked = await restInvoke(key, "mcp__modern__relay");
    expect(invoked).toMatchObject({ status: 200 });
    expect(JSON.stringify(invoked.body)).toContain(SAID);
  });

  it("is called in the chat's tool loop", async () => {
    const response = await scriptedChatTurn(
      handle.db,
      owner,
      model.baseUrl,
      [{ toolCalls: [{ name: "modern_test_simple_text", arguments: {} }] }, { text: "Done." }],
      "Say something.",
    );
    const streamed = await response.text();
    expect(streamed).toContain('"type":"tool-output-available"');
    expect(streamed).toContain(SAID);
    expect(streamed).toContain("Done.");
  });

  it("is reached through the gateway and its own pass-through endpoint by a 2025-11-25 client", async () => {
    const gateway = await connectGateway(key);
    const viaGateway = await gateway.callTool({ name: "modern_test_simple_text", arguments: {} });
    expect(textOf(viaGateway)).toBe(SAID);
    await gateway.close();
    const passThrough = await connectPassThrough("modern", key);
    const names = (await passThrough.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("test_simple_text");
    const viaPassThrough = await passThrough.callTool({ name: "test_simple_text", arguments: {} });
    expect(textOf(viaPassThrough)).toBe(SAID);
    // Its subscription becomes a listen stream for that resource, which the server acknowledges.
    expect(await passThrough.subscribeResource({ uri: "test://watched-resource" })).toEqual({});
    await passThrough.close();
  });
});

describe("an integration whose stdio server speaks only 2026-07-28", () => {
  it("is added and checked: its tools, resources and prompts are discovered at that revision", async () => {
    const checked = await testIntegration(handle.db, owner, localId);
    if (!checked.ok) throw new Error(checked.error);
    const { tools, resources, prompts } = checked.capabilities;
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["test_simple_text", "test_input_required_result_elicitation"]),
    );
    expect(resources.map((resource) => resource.uri)).toContain("test://static-text");
    expect(prompts.map((prompt) => prompt.name)).toContain("test_simple_prompt");
    // Remembered by its command, so its next process adopts the discover answer without a probe.
    expect(rememberedRevision({ integrationId: localId, ...LOCAL })).toMatchObject({
      kind: "modern",
      discover: { supportedVersions: expect.arrayContaining(["2026-07-28"]) },
    });
  });

  it("is called over REST and from the tool runner", async () => {
    expect((await restTools()).map((tool) => tool.name)).toContain("local_test_simple_text");
    expect(await restInvoke(key, "local_test_simple_text")).toEqual({
      status: 200,
      body: { content: [{ type: "text", text: SAID }] },
    });
    // The REST caller's capabilities reach the server over stdio too: it refuses what needs sampling.
    const refused = await restInvoke(key, "local_test_missing_capability");
    expect(refused.status).toBe(500);
    expect(refused.body.upstream_error).toMatchObject({ code: -32021 });
    const ran = await runIntegrationTool(handle.db, owner, localId, "test_simple_text", {});
    expect(textOf(ran)).toBe(SAID);
  });

  it("is reached through the gateway and its own pass-through endpoint by a 2025-11-25 client", async () => {
    const gateway = await connectGateway(key);
    expect(textOf(await gateway.callTool({ name: "local_test_simple_text", arguments: {} }))).toBe(SAID);
    await gateway.close();
    const passThrough = await connectPassThrough("local", key);
    expect((await passThrough.listTools()).tools.map((tool) => tool.name)).toContain("test_simple_text");
    expect(textOf(await passThrough.callTool({ name: "test_simple_text", arguments: {} }))).toBe(SAID);
    const read = await passThrough.readResource({ uri: "test://static-text" });
    expect(read.contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
    const prompt = await passThrough.getPrompt({ name: "test_simple_prompt" });
    expect(prompt.messages[0]?.content).toEqual({
      type: "text",
      text: "This is a simple prompt for testing.",
    });
    await passThrough.close();
  });
});

/** GET /api/mcp/tools with the API key. */
async function restTools(): Promise<{ name: string }[]> {
  const response = await toolsRoute(
    new Request("http://localhost:3000/api/mcp/tools", { headers: { authorization: `Bearer ${key}` } }),
    { params: Promise.resolve({}) },
  );
  return ((await response.json()) as { tools: { name: string }[] }).tools;
}
