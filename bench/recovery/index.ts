import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import type { McpConnectionConfig } from "@/lib/mcp/types";
import { type RunningFixture, startEverything } from "../../tests/fixtures/mcp/start-fixture";
import { percentile, printTable, result } from "../stats";

/**
 * How soon calls answer again after the reference server (Everything over Streamable HTTP, which answers a session
 * it forgot with HTTP 400) restarts on the same port, measured from the moment it accepts connections again:
 * - after a quiet restart: our pooled client's first call (on the session the server forgot), against a client
 *   made after the restart, which has no session to lose (the baseline: the least any client can take);
 * - after an outage with calls during it (they fail, refused, and the integration turns failing): our calls, made
 *   every 10 ms, until one answers, against the same fresh client's first call.
 * The goal is the first call after the restart: no call fails once the server is back.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const POLL_MS = 10;

let server: RunningFixture = await startEverything("streamableHttp");
const port = server.port;
const url = new URL(server.url);
const echo = { name: "echo", arguments: { message: "recovery" } };

/** Stops the server and starts it again on its port; resolves once it accepts connections. */
async function restart(whileDown: () => Promise<void> = async () => {}) {
  await server.stop();
  await whileDown();
  server = await startEverything("streamableHttp", { port });
}

async function freshClientCall(): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: "bench-baseline", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(url));
  await client.callTool(echo);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

const config = (): McpConnectionConfig => ({
  integrationId: randomUUID(),
  orgId: randomUUID(),
  timeoutMs: 30_000,
  transport: "streamable-http",
  url: url.href,
  headers: {},
  allowPrivateNetwork: true,
});

try {
  const pool = new McpSessionPool({ idleMs: 600_000 });
  const client = new SdkMcpClient(pool);
  /** Whether a call of echo answers (a failure is thrown by the client, or an error result). */
  const answers = (integration: McpConnectionConfig) =>
    client.executeTool(integration, echo.name, echo.arguments).then(
      (answer) => !answer.isError,
      () => false,
    );
  const times = { baseline: [] as number[], quiet: [] as number[], outage: [] as number[] };
  let failedAfterQuietRestart = 0;
  let refusedWhileDown = 0;
  let failedAfterOutage = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // A quiet restart: the pooled session was forgotten; the first call after it must answer.
    const quiet = config();
    await answers(quiet);
    await restart();
    const started = performance.now();
    if (!(await answers(quiet))) failedAfterQuietRestart++;
    times.quiet.push(performance.now() - started);

    await restart();
    times.baseline.push(await freshClientCall());

    // An outage with calls during it: they fail, the integration turns failing, and it is tried again by itself.
    const outage = config();
    await answers(outage);
    await restart(async () => {
      for (let i = 0; i < 5; i++) if (!(await answers(outage))) refusedWhileDown++;
    });
    const back = performance.now();
    while (!(await answers(outage))) {
      failedAfterOutage++;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    times.outage.push(performance.now() - back);
  }
  await pool.closeAll();

  const p = (xs: number[], q: number) => percentile(xs, q);
  const rows = [
    ["baseline", "a client made after the restart (baseline)"],
    ["quiet", "pooled client, first call after a quiet restart"],
    ["outage", "pooled client, calls every 10 ms after an outage it saw"],
  ] as const;
  printTable(
    rows.map(([name, variant]) => ({
      variant,
      rounds: times[name].length,
      p50_ms: p(times[name], 50).toFixed(1),
      max_ms: Math.max(...times[name]).toFixed(1),
      p50_vs_baseline: (p(times[name], 50) / p(times.baseline, 50)).toFixed(2),
    })),
  );
  console.log(
    `calls that failed once the server was back: ${failedAfterQuietRestart} after quiet restarts, ${failedAfterOutage} after outages (and ${refusedWhileDown} during the outages, as they should)`,
  );
  result("baseline_first_call_ms", p(times.baseline, 50));
  result("recovery_after_restart_ms", p(times.quiet, 50));
  result("recovery_after_restart_vs_baseline", p(times.quiet, 50) / p(times.baseline, 50));
  result("failed_calls_after_restart", failedAfterQuietRestart);
  result("recovery_after_outage_ms", p(times.outage, 50));
  result("failed_calls_after_outage", failedAfterOutage);
  result("recovery_after_outage_vs_baseline", p(times.outage, 50) / p(times.baseline, 50));
} finally {
  await server.stop();
}
