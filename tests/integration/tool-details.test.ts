import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as restTools } from "@/app/api/mcp/tools/route";
import { GET as openApi } from "@/app/api/openapi.json/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import { addIntegrations, connectGateway, connectPassThrough, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";

// The REST routes are called with API keys; their session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let everything: RunningFixture;
let structured: RunningFixture;
let key = "";
let direct: Tool[] = [];
const clients: Client[] = [];

// What MCP says of a tool besides its name, description and arguments.
const DETAILS = ["title", "outputSchema", "annotations", "icons", "execution", "_meta"] as const;
const detailsOf = (tool: Record<string, unknown> | undefined) =>
  Object.fromEntries(
    DETAILS.filter((field) => tool?.[field] !== undefined).map((field) => [field, tool?.[field]]),
  );
// A task-only tool may run as a task on the MCP endpoints (Switchboard waits for it for a plain call); REST has no tasks.
const offeredDetailsOf = (tool: Tool) => {
  const details = detailsOf(tool) as { execution?: Record<string, unknown> };
  return details.execution?.taskSupport === "required"
    ? { ...details, execution: { ...details.execution, taskSupport: "optional" } }
    : details;
};
const restDetailsOf = (tool: Tool) => {
  const { execution, ...details } = detailsOf(tool) as { execution?: Record<string, unknown> };
  const { taskSupport: _taskSupport, ...rest } = execution ?? {};
  return Object.keys(rest).length > 0 ? { ...details, execution: rest } : details;
};
const named = <T extends { name: string }>(tools: T[], name: string) =>
  tools.find((tool) => tool.name === name);

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  const [owner] = (await registerOwners(handle.db, "Tess")) as [UserContext];
  everything = await startEverything("streamableHttp");
  structured = await startFixture("structured");
  await addIntegrations(handle.db, owner, { Everything: everything, Weather: structured });
  key = (await createApiKey(handle.db, owner, { name: "details" })).key;
  // The truth: what the server lists to the SDK's client, straight.
  const client = new Client({ name: "direct", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  clients.push(client);
  direct = (await client.listTools()).tools;
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all([everything?.stop(), structured?.stop()]);
  useDatabase(undefined);
  await handle?.close();
});

const api = (path: string) =>
  new Request(`http://localhost:3000${path}`, { headers: { authorization: `Bearer ${key}` } });

describe("a tool's details, carried whole", () => {
  it("are what the server lists: echo's title and annotations, get-structured-content's output schema", () => {
    expect(detailsOf(named(direct, "echo"))).toMatchObject({ annotations: { readOnlyHint: true } });
    expect(named(direct, "get-structured-content")?.outputSchema).toMatchObject({ type: "object" });
  });

  it("reach an MCP client through /api/mcp and the pass-through as the server listed them", async () => {
    const gateway = await connectGateway(key);
    const passThrough = await connectPassThrough("everything", key);
    clients.push(gateway, passThrough);
    const viaGateway = (await gateway.listTools()).tools;
    const viaPassThrough = (await passThrough.listTools()).tools;
    for (const tool of direct) {
      expect(detailsOf(named(viaGateway, `everything_${tool.name}`)), tool.name).toEqual(
        offeredDetailsOf(tool),
      );
      expect(detailsOf(named(viaPassThrough, tool.name)), tool.name).toEqual(offeredDetailsOf(tool));
    }
    // A tool its server runs only as a task may run as one here: a plain call waits for it.
    expect(named(direct, "simulate-research-query")?.execution).toEqual({ taskSupport: "required" });
    expect(named(viaGateway, "everything_simulate-research-query")?.execution).toEqual({
      taskSupport: "optional",
    });
    // The built-in knowledge tools say they only read.
    expect(named(viaGateway, "node_knowledge_retriever")?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    // The SDK's client checks a structured result against the listed output schema: it holds.
    const result = await gateway.callTool({
      name: "everything_get-structured-content",
      arguments: { location: "New York" },
    });
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it("reach REST's listing and the OpenAPI document", async () => {
    const listing = (await (
      await restTools(api("/api/mcp/tools"), { params: Promise.resolve({}) })
    ).json()) as {
      tools: Record<string, unknown>[];
    };
    for (const tool of direct) {
      const listed = listing.tools.find((entry) => entry.name === `everything_${tool.name}`);
      expect(detailsOf(listed), tool.name).toEqual(restDetailsOf(tool));
    }

    const document = (await (
      await openApi(api("/api/openapi.json"), { params: Promise.resolve({}) })
    ).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody: { content: Record<string, { schema: { oneOf: Record<string, unknown>[] } }> } }
        >
      >;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const variants =
      document.paths["/api/mcp/invoke"]?.post?.requestBody.content["application/json"]?.schema.oneOf ?? [];
    const echo = variants.find((variant) => variant.title === "everything_echo");
    expect(echo?.["x-mcp-annotations"]).toEqual(named(direct, "echo")?.annotations);
    const structured = variants.find((variant) => variant.title === "everything_get-structured-content");
    expect(structured?.["x-mcp-output-schema"]).toEqual({
      $ref: "#/components/schemas/Result_everything_get-structured-content",
    });
    expect(document.components.schemas["Result_everything_get-structured-content"]).toMatchObject(
      named(direct, "get-structured-content")?.outputSchema ?? {},
    );
  });
});

describe("a structured result checked against its tool's output schema", () => {
  it("reaches the caller when it matches, and is reported as an error when it does not or is missing", async () => {
    const gateway = await connectGateway(key);
    clients.push(gateway);
    await gateway.listTools();
    const call = (answer: string) => gateway.callTool({ name: "weather_forecast", arguments: { answer } });
    expect(await call("valid")).toMatchObject({ structuredContent: { temperature: 21 } });
    expect(await call("invalid")).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "weather_forecast answered a result that does not match its output schema: temperature must be number.",
        },
      ],
    });
    expect(await call("none")).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("it has no structured result") }],
    });

    // REST answers it as the tool failing, with what is wrong.
    const rest = await restInvoke(key, "weather_forecast", { answer: "invalid" });
    expect(rest.status).toBe(500);
    expect(rest.body).toMatchObject({
      tool_name: "weather_forecast",
      details: expect.stringContaining("temperature must be number"),
    });
    expect(await restInvoke(key, "weather_forecast", { answer: "valid" })).toEqual({
      status: 200,
      body: { temperature: 21 },
    });
  });
});
