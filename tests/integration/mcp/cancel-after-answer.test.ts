import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import type { McpConnectionConfig } from "@/lib/mcp/types";

const ORG_ID = randomUUID();
// Every JSON-RPC method the server receives, in order.
const received: string[] = [];
let http: HttpServer;
let url = "";
const pool = new McpSessionPool({ idleMs: 60_000 });
const client = new SdkMcpClient(pool);

beforeAll(async () => {
  const server = new McpServer({ name: "recorder", version: "1.0.0" });
  server.registerTool("echo", { description: "Answers at once" }, () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  http = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const parsed: unknown = body ? JSON.parse(body) : undefined;
      for (const message of Array.isArray(parsed) ? parsed : parsed ? [parsed] : [])
        if (message && typeof message === "object" && "method" in message)
          received.push(String(message.method));
      void transport.handleRequest(req, res, parsed);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await pool.closeAll();
  http?.close();
});

const config = (): McpConnectionConfig => ({
  integrationId: "recorder",
  orgId: ORG_ID,
  timeoutMs: 5_000,
  transport: "streamable-http",
  url,
  headers: {},
  allowPrivateNetwork: true,
});

it("a caller's signal that fires after the answer cancels nothing on the server", async () => {
  const shared = config();
  const caller = new AbortController();
  const result = await client.executeTool(shared, "echo", {}, { signal: caller.signal });
  expect(result).toMatchObject({ isError: false });
  await client.listFeatures(shared, { signal: caller.signal });
  caller.abort();
  // One more request, so anything sent on the abort has certainly arrived before it.
  await client.executeTool(shared, "echo", {});
  expect(received).not.toContain("notifications/cancelled");
  expect(received.filter((method) => method === "tools/call")).toHaveLength(2);
});

it("a signal that fires while the call runs still cancels it", async () => {
  const caller = new AbortController();
  caller.abort();
  await expect(client.executeTool(config(), "echo", {}, { signal: caller.signal })).rejects.toThrow(
    "The call was cancelled before the server answered.",
  );
});
