import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import type { McpConnectionConfig } from "@/lib/mcp/types";
import { startEverything } from "../../tests/fixtures/mcp/start-fixture";
import { percentile, printTable, result, sample } from "../stats";

/**
 * Latency of `echo` calls against a local Streamable HTTP server (the Everything reference server), three ways
 * in one run: our pooled client, a fresh connection per call, and a raw SDK client held open (the baseline).
 */
const calls = Number(process.env.BENCH_CALLS ?? 1000);
const server = await startEverything("streamableHttp");
try {
  const url = new URL(server.url);
  const config: McpConnectionConfig = {
    integrationId: randomUUID(),
    orgId: randomUUID(),
    timeoutMs: 30_000,
    transport: "streamable-http",
    url: server.url,
    headers: {},
    allowPrivateNetwork: true,
  };
  const echo = { name: "echo", arguments: { message: "benchmark" } };

  const raw = new Client({ name: "bench-baseline", version: "1" });
  await raw.connect(new StreamableHTTPClientTransport(url));
  const pool = new McpSessionPool({ idleMs: 60_000 });
  const pooled = new SdkMcpClient(pool);

  // Interleaved rounds so machine noise hits every variant alike.
  const rounds = 5;
  const times = { baseline: [] as number[], pooled: [] as number[], fresh: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    times.baseline.push(...(await sample(() => raw.callTool(echo), calls / rounds)));
    times.pooled.push(
      ...(await sample(() => pooled.executeTool(config, "echo", echo.arguments), calls / rounds)),
    );
    times.fresh.push(
      ...(await sample(async () => {
        const client = new Client({ name: "bench-fresh", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(url));
        await client.callTool(echo);
        await client.close();
      }, calls / rounds)),
    );
  }
  await raw.close();
  await pool.closeAll();

  const p = (xs: number[], q: number) => percentile(xs, q);
  printTable(
    (["baseline", "pooled", "fresh"] as const).map((name) => ({
      variant:
        name === "baseline"
          ? "raw SDK client held open (baseline)"
          : name === "pooled"
            ? "pooled client"
            : "fresh connection per call",
      calls: times[name].length,
      p50_ms: p(times[name], 50).toFixed(3),
      p99_ms: p(times[name], 99).toFixed(3),
      p50_vs_baseline: (p(times[name], 50) / p(times.baseline, 50)).toFixed(2),
    })),
  );
  result("baseline_p50_ms", p(times.baseline, 50));
  result("pooled_p50_ms", p(times.pooled, 50));
  result("pooled_p99_ms", p(times.pooled, 99));
  result("fresh_p50_ms", p(times.fresh, 50));
  result("pooled_vs_baseline_p50", p(times.pooled, 50) / p(times.baseline, 50));
  result("fresh_vs_baseline_p50", p(times.fresh, 50) / p(times.baseline, 50));
} finally {
  await server.stop();
}
