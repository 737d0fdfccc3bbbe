import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as schema from "@/db/schema";
import { startEverything } from "../../tests/fixtures/mcp/start-fixture";
import { openBenchDatabase } from "../embedded-database";
import { percentile, printTable, result, sample } from "../stats";

/**
 * The gateway's overhead: p50/p99 of tools/call on Everything's echo through POST /api/mcp (its route handler
 * behind a plain Node HTTP server, embedded database) against the SDK client calling Everything directly, in an
 * organization with 20 more integrations of 50 tools each and 100 capabilities, and tools/list latency there.
 */
process.env.MCP_ALLOW_PRIVATE_NETWORKS = "true";
process.env.LOG_LEVEL = "silent";
process.env.API_RATE_LIMIT_PER_MINUTE = "0";
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const LISTS = Number(process.env.BENCH_LISTS ?? 50);

const handle = await openBenchDatabase();

// Loaded after the environment above is set, since the app reads it once.
const { POST } = await import("@/app/api/mcp/route");
const { createApiKey } = await import("@/lib/api-keys/api-keys");
const { createCapability } = await import("@/lib/capabilities/store");
const { createIntegration, testIntegration } = await import("@/lib/mcp/integrations-service");
const { createOrganization } = await import("@/lib/orgs/organizations");
const { mcpIntegrations } = schema;

async function toRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
  return new Request(`http://127.0.0.1:${port}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
  });
}

const gatewayServer = createServer(async (req, res) => {
  const address = gatewayServer.address() as AddressInfo;
  const response = await POST(await toRequest(req, address.port), { params: Promise.resolve({}) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise<void>((resolve) => gatewayServer.listen(0, "127.0.0.1", resolve));
const gatewayUrl = `http://127.0.0.1:${(gatewayServer.address() as AddressInfo).port}/api/mcp`;

const upstream = await startEverything("streamableHttp");
const connect = async (url: string, headers: Record<string, string> = {}) => {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
};

try {
  const org = await createOrganization(handle.db, { name: "Bench", slug: "bench" });
  const ctx = { orgId: org.id, role: "owner" as const, isSuperadmin: false, apiKeyId: "bench" };
  const echo = await createIntegration(handle.db, ctx, {
    source: "custom",
    name: "Echo",
    transport: "streamable-http",
    url: upstream.url,
  });
  await testIntegration(handle.db, ctx, echo.id);
  const { key } = await createApiKey(handle.db, ctx, { name: "bench" });

  // A large organization: 20 integrations of 50 tools each (their stored discovery) and 100 capabilities.
  for (let i = 0; i < 20; i++) {
    await handle.db.insert(mcpIntegrations).values({
      organizationId: org.id,
      name: `Server ${i}`,
      slug: `server_${i}`,
      transport: "streamable-http",
      url: `https://server-${i}.example.com/mcp`,
      discovered: {
        tools: Array.from({ length: 50 }, (_, t) => ({
          name: `tool_${t}`,
          description: `Tool ${t} of server ${i}`,
          inputSchema: { type: "object", properties: { query: { type: "string" } } },
        })),
        resources: [],
        prompts: [],
      },
    });
  }
  for (let i = 0; i < 100; i++) {
    await createCapability(handle.db, ctx, { namespace: "bench", action: `action_${i}`, code: "return 1;" });
  }
  const direct = await connect(upstream.url);
  const viaGateway = await connect(gatewayUrl, { Authorization: `Bearer ${key}` });
  const directTimes = await sample(
    () => direct.callTool({ name: "echo", arguments: { message: "hi" } }),
    CALLS,
  );
  const gatewayTimes = await sample(
    () => viaGateway.callTool({ name: "echo_echo", arguments: { message: "hi" } }),
    CALLS,
  );

  const listed = (await viaGateway.listTools()).tools.length;
  const listTimes = await sample(() => viaGateway.listTools(), LISTS);

  const row = (name: string, times: number[]) => ({
    measurement: name,
    samples: times.length,
    p50_ms: Number(percentile(times, 50).toFixed(2)),
    p99_ms: Number(percentile(times, 99).toFixed(2)),
  });
  printTable([
    row("tools/call echo, SDK client → Everything directly", directTimes),
    row("tools/call echo, SDK client → gateway → Everything", gatewayTimes),
    row(`tools/list through the gateway (${listed} tools)`, listTimes),
  ]);
  result("direct_call_p50_ms", percentile(directTimes, 50));
  result("gateway_call_p50_ms", percentile(gatewayTimes, 50));
  result("call_p50_vs_direct", percentile(gatewayTimes, 50) / percentile(directTimes, 50));
  result("call_p99_vs_direct", percentile(gatewayTimes, 99) / percentile(directTimes, 99));
  result("list_tools", listed);
  result("list_p50_ms", percentile(listTimes, 50));
  await direct.close();
  await viaGateway.close();
} finally {
  gatewayServer.close();
  await upstream.stop();
  const { getMcpClient } = await import("@/lib/mcp/client/shared-client");
  await getMcpClient().pool.closeAll();
  await handle.close();
}
process.exit(0);
