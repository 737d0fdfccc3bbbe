import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import {
  type RunningFaultServer,
  type RunningFixture,
  startEverything,
  startFaultServer,
} from "../fixtures/mcp/start-fixture";
import {
  connectGateway,
  connectPassThrough,
  gatewayFetch,
  passThroughFetch,
  textOf,
  useDatabase,
} from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";
import { usageRecordsOf } from "./usage-records";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let key: string;
let everything: RunningFixture;
let fault: RunningFaultServer;
let gone: RunningFaultServer;
let goneId: string;
const clients: Client[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Err")) as [UserContext];
  [everything, fault, gone] = await Promise.all([
    startEverything("streamableHttp"),
    startFaultServer(),
    startFaultServer(),
  ]);
  await addTestedIntegration(handle.db, a, { name: "Remote", url: everything.url });
  await addTestedIntegration(handle.db, a, { name: "Faulty", url: fault.url });
  // An integration whose server never answered: it was never discovered.
  await gone.down();
  goneId = (
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Gone",
      transport: "streamable-http",
      url: gone.url,
      timeoutMs: 2000,
    })
  ).id;
  key = (await createApiKey(handle.db, a, { name: "errors" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all([everything?.stop(), fault?.stop(), gone?.stop()]);
  useDatabase(undefined);
  await handle?.close();
});

/** One JSON-RPC request without a session, to the gateway or a pass-through endpoint, answered as JSON. */
async function rpc(endpoint: "gateway" | { slug: string }, method: string, params: unknown) {
  const url =
    endpoint === "gateway"
      ? "http://localhost:3000/api/mcp"
      : `http://localhost:3000/api/mcp/integrations/${endpoint.slug}`;
  const post = endpoint === "gateway" ? gatewayFetch : passThroughFetch(endpoint.slug);
  const response = await post(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

const rest = (toolName: string, params: Record<string, unknown> = {}) => restInvoke(key, toolName, params);

/** What the server itself sends for this prompts/get, read with the SDK's own client connected to it directly. */
async function sentByEverything(name: string, args: Record<string, string>) {
  const direct = new Client({ name: "direct", version: "1" });
  await direct.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  clients.push(direct);
  const error = await direct.getPrompt({ name, arguments: args }).catch((failure: McpError) => failure);
  if (!(error instanceof McpError)) throw new Error("expected an error");
  // The SDK's client puts "MCP error <code>: " before what it received.
  return { code: error.code, message: error.message.slice(`MCP error ${error.code}: `.length) };
}

const NEEDS_URL = {
  code: -32042,
  message: "MCP error -32042: Open the link to connect your account first.",
  data: {
    elicitations: [
      {
        mode: "url",
        elicitationId: "connect-1",
        url: "https://example.com/connect",
        message: "Connect your account",
      },
    ],
  },
};

describe("an upstream server's MCP errors", () => {
  it("reach MCP clients of both endpoints as the server sent them: prompts/get with an argument missing", async () => {
    const sent = await sentByEverything("args-prompt", {});
    expect(sent.message).toMatch(/^MCP error -32602: Invalid arguments for prompt args-prompt/);
    expect(await rpc("gateway", "prompts/get", { name: "remote_args-prompt", arguments: {} })).toMatchObject({
      error: sent,
    });
    expect(
      await rpc({ slug: "remote" }, "prompts/get", { name: "args-prompt", arguments: {} }),
    ).toMatchObject({
      error: sent,
    });
  });

  it("keep their data, as on a resource that does not exist", async () => {
    // Resource not found goes out as -32602 with the URI in its data, as 2026-07-28 requires and the MCP SDKs send
    // at every revision (clients accept both codes); message and data are the server's.
    expect(await rpc({ slug: "faulty" }, "resources/read", { uri: "fault://nothing" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message: "MCP error -32002: Resource not found: fault://nothing",
        data: { uri: "fault://nothing" },
      },
    });
    expect(await rpc({ slug: "faulty" }, "prompts/get", { name: "greet", arguments: {} })).toMatchObject({
      error: {
        code: -32602,
        message: "MCP error -32602: Missing required argument: name",
        data: { argument: "name" },
      },
    });
  });

  it("answer a tools/call with the server's own error, so a client takes the URL elicitation path", async () => {
    // Without a session: the JSON answer.
    expect((await rpc("gateway", "tools/call", { name: "faulty_needs_url", arguments: {} })).error).toEqual(
      NEEDS_URL,
    );
    expect((await rpc({ slug: "faulty" }, "tools/call", { name: "needs_url", arguments: {} })).error).toEqual(
      NEEDS_URL,
    );
    // In a session (an event stream), with the SDK's own clients.
    for (const [client, name] of [
      [await connectGateway(key), "faulty_needs_url"],
      [await connectPassThrough("faulty", key), "needs_url"],
    ] as const) {
      clients.push(client);
      const error = await client.callTool({ name, arguments: {} }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect((error as UrlElicitationRequiredError).elicitations).toEqual(NEEDS_URL.data.elicitations);
    }
    const records = await usageRecordsOf(handle.db, a.orgId, "gateway", "faulty_needs_url");
    expect(records.map((record) => record.outcome)).toEqual([
      "tool_error",
      "tool_error",
      "tool_error",
      "tool_error",
    ]);
  });

  it("reach REST callers in the error contract, with the server's message and its error", async () => {
    const answer = await rest("faulty_needs_url");
    expect(answer).toEqual({
      status: 500,
      body: {
        error: "Tool execution failed",
        tool_name: "faulty_needs_url",
        details: NEEDS_URL.message,
        upstream_error: NEEDS_URL,
      },
    });
    // The OpenAPI document describes that answer as it is.
    const document = buildOpenApiDocument([], "http://localhost:3000", {});
    const { schema } = document.paths["/api/mcp/invoke"].post.responses["500"].content["application/json"];
    const validate = new Ajv({ strict: false }).compile({ ...schema, components: document.components });
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe("a tool whose integration was never discovered", () => {
  it("is unavailable, not unknown: 503 on REST with the integration's state", async () => {
    const answer = await rest("gone_echo", { message: "x" });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      code: "unavailable:mcp_integration",
      tool_name: "gone_echo",
      error: expect.stringMatching(
        /^Gone is unavailable\. Its tools are not known yet: connection refused\.$/,
      ),
      integration: {
        id: goneId,
        name: "Gone",
        state: expect.stringMatching(/degraded|failing/),
        cause: "connection refused",
      },
    });
  });

  it("is an error result that names it on both MCP endpoints", async () => {
    const gateway = await rpc("gateway", "tools/call", { name: "gone_echo", arguments: { message: "x" } });
    expect(gateway.result).toMatchObject({ isError: true });
    expect(textOf(gateway.result)).toMatch(/^Gone is unavailable\. Its tools are not known yet/);
    const passed = await rpc({ slug: "gone" }, "tools/call", { name: "echo", arguments: { message: "x" } });
    expect(textOf(passed.result)).toMatch(/^Gone is unavailable\./);
  });
});
