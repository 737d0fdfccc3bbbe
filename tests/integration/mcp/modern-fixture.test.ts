import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningFixture, startFixture } from "../../fixtures/mcp/start-fixture";

let modernOnly: RunningFixture;
let both: RunningFixture;

beforeAll(async () => {
  modernOnly = await startFixture("conformance-modern");
  both = await startFixture("conformance");
});

afterAll(async () => {
  await modernOnly?.stop();
  await both?.stop();
});

async function modernClient(url: string) {
  const client = new ModernClient(
    { name: "fixture-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
  );
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { name: "Ada" },
  }));
  await client.connect(new ModernTransport(new URL(url)));
  return client;
}

describe("the conformance fixture on the SDK's v2 server package", () => {
  it("speaking only 2026-07-28: serves a 2026-07-28 client, questions included, and refuses a 2025 one", async () => {
    const client = await modernClient(modernOnly.url);
    expect(client.getProtocolEra()).toBe("modern");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("test_input_required_result_elicitation");
    const asked = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    expect(asked.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    await client.close();
    const legacy = new Client({ name: "fixture-test", version: "1.0.0" });
    await expect(legacy.connect(new StreamableHTTPClientTransport(new URL(modernOnly.url)))).rejects.toThrow(
      /Unsupported protocol version|400/,
    );
  });

  it("speaking both: the same question reaches a 2025 client in its session as a request", async () => {
    const client = new Client(
      { name: "fixture-test", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Grace" },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(both.url)));
    const asked = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    expect(asked.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
    await client.close();
    const modern = await modernClient(both.url);
    expect(modern.getProtocolEra()).toBe("modern");
    await modern.close();
  });
});
