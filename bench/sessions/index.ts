import { createCapability } from "@/lib/capabilities/store";
import { startEverything, startFixture } from "../../tests/fixtures/mcp/start-fixture";
import { ApiKeyRing } from "../api-key-ring";
import { type CpuSources, postgresBackends, startCpuMeter } from "../cpu";
import { benchClients, type CallParams } from "../gateway/clients";
import { type RunningHub, startMcpHub } from "../gateway/mcp-hub";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import {
  addIntegration,
  closeBenchClients,
  createBenchApiKeys,
  createBenchOrganization,
  insertStoredIntegrations,
} from "../seed";
import { percentile, printTable, result, sample } from "../stats";
import { openIdleSessions } from "./idle-sessions";

/**
 * Calls where MCP clients really make them: in a 2025-11-25 session, as every standard client does once the
 * gateway hands out an Mcp-Session-Id. The production build on PostgreSQL, logging and the rate limit at their
 * defaults, in an organization like the gateway bench's (20 more integrations of 50 tools, 100 capabilities).
 *
 * Sequential calls: BENCH_CALLS (1,000) tools/call of echo per path after a warm-up, three repetitions
 * interleaved, medians of each repetition's p50 and p99, to server-everything and to a plain SDK server on
 * node:http (which answers without server-everything's priming wait, so the proxies' own hops compare on equal
 * terms): directly, through mcp-hub 4.2, through Switchboard's /api/mcp in a session and through the integration's
 * pass-through endpoint in a session.
 *
 * Eight clients at once: 8 SDK clients in sessions, each BENCH_CONC_CALLS (50) calls a block, BENCH_CONC_BLOCKS
 * (6) blocks per path interleaved, through mcp-hub and both Switchboard endpoints, to the plain server: calls a
 * second and p99.
 *
 * Idle sessions: 1,000 sessions opened across two instances (half of them on the pass-through), each having made
 * one call, and the instances' memory before and after; then the first call of a session on the instance that did
 * not open it, beside its next call there.
 */
const databaseUrl = requireDatabaseUrl("sessions");
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const REPETITIONS = 3;
const CONC_CLIENTS = 8;
const CONC_CALLS = Number(process.env.BENCH_CONC_CALLS ?? 50);
const CONC_BLOCKS = Number(process.env.BENCH_CONC_BLOCKS ?? 6);
const IDLE_SESSIONS = Number(process.env.BENCH_IDLE_SESSIONS ?? 1000);
const RESUMED = 50;
const KEYS = 60;
const basePort = Number(process.env.BENCH_PORT ?? 3240);
const ports = {
  upstream: basePort,
  hub: basePort + 1,
  plainHub: basePort + 2,
  app: basePort + 3,
  other: basePort + 4,
};

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "sessions");
const upstream = await startEverything("streamableHttp", { port: ports.upstream });
const plainUpstream = await startFixture("echo");
const clients = benchClients();
let hub: RunningHub | undefined;
let plainHub: RunningHub | undefined;
let app: RunningApp | undefined;
let other: RunningApp | undefined;

type Caller = { callTool(params: CallParams): Promise<Record<string, unknown>> };
const median = (values: number[]) => percentile(values, 50);

try {
  hub = await startMcpHub({ port: ports.hub, upstreamUrl: upstream.url });
  plainHub = await startMcpHub({ port: ports.plainHub, upstreamUrl: plainUpstream.url });
  const { db } = database.handle;
  const { org, ctx } = await createBenchOrganization(db, "Bench sessions");
  const echo = await addIntegration(db, ctx, "Echo", upstream.url);
  const plain = await addIntegration(db, ctx, "Plain", plainUpstream.url);
  await insertStoredIntegrations(db, org.id, { count: 20, toolsEach: 50 });
  for (let i = 0; i < 100; i++)
    await createCapability(db, ctx, { namespace: "bench", action: `action_${i}`, code: "return 1;" });
  const keyList = await createBenchApiKeys(db, ctx, KEYS);
  const ring = new ApiKeyRing(keyList);
  // Each client at once keeps its own key, as one busy client would; one set per path.
  const concKeys = await createBenchApiKeys(db, ctx, CONC_CLIENTS * 2);
  // Each session makes three requests (and a few five) with its key: 150 sessions a key stay within its limit.
  const idleKeys = new ApiKeyRing(await createBenchApiKeys(db, ctx, Math.ceil(IDLE_SESSIONS / 150) + 1), 150);
  await closeBenchClients();

  app = await startApp({ port: ports.app, databaseUrl: database.url, env: shared });
  other = await startApp({ port: ports.other, databaseUrl: database.url, env: shared });
  const gatewayUrl = `${app.origin}/api/mcp`;
  const passthroughUrl = (slug: string) => `${app?.origin}/api/mcp/integrations/${slug}`;

  // The same four paths to each upstream server, in this order (the results below read them by place).
  const paths: { name: string; client: Caller; tool: string }[] = [];
  for (const target of [
    { label: "server-everything", url: upstream.url, hub, slug: echo.slug },
    { label: "plain echo server", url: plainUpstream.url, hub: plainHub, slug: plain.slug },
  ])
    paths.push(
      {
        name: `SDK client → ${target.label} directly`,
        client: await clients.connect(target.url),
        tool: "echo",
      },
      {
        name: `→ mcp-hub 4.2 → ${target.label}`,
        client: await clients.connect(target.hub.url, { sse: true }),
        tool: target.hub.toolName("echo"),
      },
      {
        name: `→ Switchboard /api/mcp in a session → ${target.label}`,
        client: await clients.connectSessions(gatewayUrl, keyList, ring),
        tool: `${target.slug}_echo`,
      },
      {
        name: `→ Switchboard pass-through in a session → ${target.label}`,
        client: await clients.connectSessions(passthroughUrl(target.slug), keyList, ring),
        tool: "echo",
      },
    );
  const call = (client: Caller, tool: string, name: string) => async () => {
    const answer = await client.callTool({ name: tool, arguments: { message: "hi" } });
    if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.content)}`);
  };
  for (const path of paths) await sample(call(path.client, path.tool, path.name), Math.ceil(CALLS / 10), 0);

  const appPid = app.pid;
  const cpuSources: CpuSources = {
    app: () => [appPid],
    postgres: () => postgresBackends(database.name),
    hub: () => [hub?.pid, plainHub?.pid].filter((pid) => pid !== undefined),
    upstream: () => [upstream.process.pid, plainUpstream.process.pid].filter((pid) => pid !== undefined),
    bench: () => [process.pid],
  };
  const WARMUP = 20;
  const calls = paths.map(() => [] as number[][]);
  const cpuPerCall = paths.map(() => ({}) as Record<string, number>);
  for (let r = 0; r < REPETITIONS; r++)
    for (const [i, path] of paths.entries()) {
      const stopMeter = startCpuMeter(cpuSources);
      calls[i]?.push(await sample(call(path.client, path.tool, path.name), CALLS, WARMUP));
      for (const [source, ms] of Object.entries(stopMeter())) {
        const spent = cpuPerCall[i] as Record<string, number>;
        spent[source] = (spent[source] ?? 0) + ms / (REPETITIONS * (CALLS + WARMUP));
      }
    }
  const p50 = calls.map((reps) => median(reps.map((times) => percentile(times, 50))));
  const p99 = calls.map((reps) => median(reps.map((times) => percentile(times, 99))));

  // Eight clients at once, each in its own session with its own key (the hub's with none).
  const concPaths = [
    {
      name: "8 clients at once → mcp-hub 4.2 → plain echo server",
      clients: await Promise.all(
        Array.from({ length: CONC_CLIENTS }, () => clients.connect(plainHub?.url ?? "", { sse: true })),
      ),
      tool: plainHub.toolName("echo"),
    },
    {
      name: "8 clients at once → Switchboard /api/mcp in sessions → plain echo server",
      clients: await Promise.all(
        concKeys.slice(0, CONC_CLIENTS).map((key) => clients.connect(gatewayUrl, { key })),
      ),
      tool: `${plain.slug}_echo`,
    },
    {
      name: "8 clients at once → Switchboard pass-through in sessions → plain echo server",
      clients: await Promise.all(
        concKeys.slice(CONC_CLIENTS).map((key) => clients.connect(passthroughUrl(plain.slug), { key })),
      ),
      tool: "echo",
    },
  ];
  const conc = concPaths.map(() => ({ times: [] as number[], elapsed: 0, calls: 0 }));
  for (let block = 0; block < CONC_BLOCKS + 1; block++)
    for (const [i, path] of concPaths.entries()) {
      const started = performance.now();
      const times = await Promise.all(
        path.clients.map((client) => sample(call(client, path.tool, path.name), CONC_CALLS, 0)),
      );
      const elapsed = performance.now() - started;
      // The first block warms every path up.
      if (block === 0) continue;
      const measured = conc[i] as (typeof conc)[number];
      measured.times.push(...times.flat());
      measured.elapsed += elapsed;
      measured.calls += CONC_CLIENTS * CONC_CALLS;
    }
  const perSecond = conc.map(({ calls, elapsed }) => (calls / elapsed) * 1000);

  // Idle sessions across both instances, then resumed on the instance that did not open them.
  const idle = await openIdleSessions({
    origins: [app.origin, other.origin],
    endpoints: ["/api/mcp", `/api/mcp/integrations/${plain.slug}`],
    tools: [`${plain.slug}_echo`, "echo"],
    count: IDLE_SESSIONS,
    resumed: RESUMED,
    keys: idleKeys,
    rssMb: () => (app?.rssMb() ?? 0) + (other?.rssMb() ?? 0),
  });

  printTable([
    ...paths.map((path, i) => ({
      measurement: `tools/call echo, ${path.name}`,
      samples: (calls[i] ?? []).reduce((sum, times) => sum + times.length, 0),
      p50_ms: Number((p50[i] ?? Number.NaN).toFixed(2)),
      p99_ms: Number((p99[i] ?? Number.NaN).toFixed(2)),
      ...Object.fromEntries(
        Object.keys(cpuSources).map((source) => [
          `${source}_cpu_ms`,
          Number((cpuPerCall[i]?.[source] ?? 0).toFixed(2)),
        ]),
      ),
    })),
    ...concPaths.map((path, i) => ({
      measurement: path.name,
      samples: conc[i]?.times.length ?? 0,
      p50_ms: Number(percentile(conc[i]?.times ?? [], 50).toFixed(2)),
      p99_ms: Number(percentile(conc[i]?.times ?? [], 99).toFixed(2)),
      calls_per_s: Number((perSecond[i] ?? 0).toFixed(0)),
    })),
  ]);
  console.log(
    `Sequential figures are medians of ${REPETITIONS} interleaved repetitions; *_cpu_ms is each process's CPU time per call. ${IDLE_SESSIONS} idle sessions took ${idle.rssMb.toFixed(0)} MB across two instances (${idle.rssBeforeMb.toFixed(0)} MB before).`,
  );

  const at = (i: number) => ({ p50: p50[i] ?? Number.NaN, p99: p99[i] ?? Number.NaN });
  const [direct, viaHub, session, passthrough, plainDirect, plainHubbed, plainSession, plainPassthrough] =
    paths.map((_, i) => at(i));
  if (
    !direct ||
    !viaHub ||
    !session ||
    !passthrough ||
    !plainDirect ||
    !plainHubbed ||
    !plainSession ||
    !plainPassthrough
  )
    throw new Error("missing measurements");
  result("session_call_p50_ms", session.p50);
  result("session_call_p50_vs_mcphub", session.p50 / viaHub.p50);
  result("session_call_p50_vs_direct", session.p50 / direct.p50);
  result("plain_session_call_p50_ms", plainSession.p50);
  result("plain_session_call_p50_vs_mcphub", plainSession.p50 / plainHubbed.p50);
  result("plain_session_call_p50_vs_direct", plainSession.p50 / plainDirect.p50);
  result("passthrough_session_call_p50_vs_mcphub", passthrough.p50 / viaHub.p50);
  result("plain_passthrough_session_call_p50_vs_mcphub", plainPassthrough.p50 / plainHubbed.p50);
  result("session_app_cpu_ms_per_call", cpuPerCall[6]?.app ?? Number.NaN);
  result("passthrough_app_cpu_ms_per_call", cpuPerCall[7]?.app ?? Number.NaN);
  const concAt = (i: number) => ({
    perSecond: perSecond[i] ?? Number.NaN,
    p99: percentile(conc[i]?.times ?? [], 99),
  });
  const [hubConc, gatewayConc, passthroughConc] = [concAt(0), concAt(1), concAt(2)];
  result("conc8_calls_per_s_vs_mcphub", gatewayConc.perSecond / hubConc.perSecond);
  result("conc8_p99_vs_mcphub", gatewayConc.p99 / hubConc.p99);
  result("passthrough_conc8_calls_per_s_vs_mcphub", passthroughConc.perSecond / hubConc.perSecond);
  result("passthrough_conc8_p99_vs_mcphub", passthroughConc.p99 / hubConc.p99);
  result("session_rss_mb_per_1000", (idle.rssMb / IDLE_SESSIONS) * 1000);
  result("session_resume_p50_ms", idle.resumeP50);
  result("session_resume_vs_next_call", idle.resumeP50 / idle.nextP50);
} finally {
  await clients.closeAll();
  await app?.stop();
  await other?.stop();
  await hub?.stop();
  await plainHub?.stop();
  await plainUpstream.stop();
  await upstream.stop();
  await database.drop();
}
process.exit(0);
