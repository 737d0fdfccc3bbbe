import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { z } from "zod";
import { createCapability } from "@/lib/capabilities/store";
import { startEverything, startFixture } from "../../tests/fixtures/mcp/start-fixture";
import { ApiKeyRing } from "../api-key-ring";
import { type CpuSources, postgresBackends, startCpuMeter } from "../cpu";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import {
  addIntegration,
  closeBenchClients,
  createBenchAccessTokens,
  createBenchApiKeys,
  createBenchOrganization,
  insertStoredIntegrations,
} from "../seed";
import { percentile, printTable, result, sample, sampleInTurn } from "../stats";
import { benchClients, rawCaller, withoutSession } from "./clients";
import { type RunningHub, startMcpHub } from "./mcp-hub";

/**
 * The gateway as deployed: the production build served by `npm start` on PostgreSQL, with logging and the rate
 * limit at their defaults, called over HTTP from this process with the MCP SDK's client.
 *
 * Calls: BENCH_CALLS (1,000) sequential tools/call of server-everything's echo (over Streamable HTTP) after a
 * warm-up, three repetitions interleaved, medians of each repetition's p50 and p99, through three paths:
 * directly; through mcp-hub 4.2 (its unified endpoint, which speaks HTTP+SSE to clients and Streamable HTTP to
 * the server); through Switchboard's POST /api/mcp, in an organization with 20 more integrations of 50 tools
 * each and 100 capabilities, by a client that keeps no session; and through it in a session (each call streamed
 * and its answer kept for resumption); and by the SDK's v2 client at 2026-07-28 (stateless, each call one POST).
 * The same paths to a plain echo server (plainUpstream, below) compare them on equal terms, and two callers that
 * make one HTTP request per call (2025-11-25 without a session, 2026-07-28) compare the app's own cost at each
 * revision without the clients'. Also the database transactions each call through Switchboard costs.
 *
 * Listings (tools/list, each answer read to its last byte, see connectLister): that organization, sequentially;
 * and one with 10,000 tools (200 integrations × 50), alone and by 8 clients at once. Integrations other than
 * echo are stored discoveries: listings read those, never the servers.
 *
 * The rate limit stays at 600 a minute a key: requests take the organization's keys in turn, each for at most 500
 * a minute (ApiKeyRing), so every request is counted and none is refused.
 *
 * OAuth: the same calls to the plain echo server with access tokens instead of keys (each from a grant of its own,
 * taken in turn like the keys); token_call_p*_vs_key compare the two call for call, a keyed call and a call with a
 * token in turn (BENCH_CALLS × 3 of each): a token must cost no more than a key.
 */
const databaseUrl = requireDatabaseUrl("gateway");
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const REPETITIONS = 3;
const LISTS = Number(process.env.BENCH_LISTS ?? 50);
const LISTS_10K = Number(process.env.BENCH_LISTS_10K ?? 20);
const LIST_CLIENTS = 8;
const KEYS = 60;
const basePort = Number(process.env.BENCH_PORT ?? 3220);
const ports = { upstream: basePort, hub: basePort + 1, app: basePort + 2, plainHub: basePort + 3 };

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "gateway");
const upstream = await startEverything("streamableHttp", { port: ports.upstream });
// To a client speaking 2025-11-25 (as this SDK and the app do), server-everything first sends a priming event for
// resumption; @hono/node-server, which serves it, then waits a timer (setTimeout) before sending anything, about a
// millisecond a call. mcp-hub's own SDK speaks 2025-06-18, spared that: a direct client speaking 2025-06-18 shows
// the wait, and the same paths to a plain echo server show the comparison on equal terms.
const plainUpstream = await startFixture("echo");
let hub: RunningHub | undefined;
let plainHub: RunningHub | undefined;
let app: RunningApp | undefined;
const clients = benchClients();
const { connect, connectModern, connectSessions } = clients;
const listerClients: Client[] = [];

/**
 * A client listing tools through the gateway that receives each answer to its last byte, as sent (compressed when
 * the app compresses), without decoding it, so the figure is the server's: decompressing, parsing and checking a
 * 10,000-tool answer (1.5 MB) costs a client 20–35 ms of CPU, on the same two cores as the app. The SDK's client
 * makes the handshake.
 */
async function connectLister(url: string, ring: ApiKeyRing) {
  // Keys change from request to request, and a session belongs to one key: the lister keeps none.
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: withoutSession(ring.fetch) });
  const client = new Client({ name: "switchboard-bench", version: "1.0.0" });
  await client.connect(transport);
  listerClients.push(client);
  let id = 0;
  const body = (cursor?: string) =>
    JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/list", params: cursor ? { cursor } : {} });
  const headers = () => ({
    authorization: `Bearer ${ring.next()}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    // What Node's fetch, and so the SDK's client, asks for.
    "accept-encoding": "gzip, deflate",
    ...(transport.protocolVersion ? { "mcp-protocol-version": transport.protocolVersion } : {}),
  });
  /** One page decoded (JSON, or an event stream's data lines): its tools and the cursor to the next. */
  const ListAnswer = z.object({
    result: z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }),
  });
  const decodedPage = async (cursor?: string) => {
    const response = await fetch(url, { method: "POST", headers: headers(), body: body(cursor) });
    const text = await response.text();
    if (!response.ok) throw new Error(`tools/list answered ${response.status}: ${text.slice(0, 300)}`);
    const json = text.trimStart().startsWith("{")
      ? text
      : text
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5))
          .join("");
    return ListAnswer.parse(JSON.parse(json)).result;
  };
  let pages = 0;
  return {
    /** How many tools the listing holds, decoded: once, before any timing. */
    async count() {
      let total = 0;
      let cursor: string | undefined;
      pages = 0;
      do {
        const page = await decodedPage(cursor);
        total += page.tools.length;
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      return total;
    },
    /** The listing, received to its last byte; pages after the first need the cursor, so those are decoded. */
    async list() {
      if (pages > 1) {
        let cursor: string | undefined;
        do cursor = (await decodedPage(cursor)).nextCursor;
        while (cursor);
        return;
      }
      const response = await request(url, { method: "POST", headers: headers(), body: body() });
      await response.body.dump({ limit: Number.POSITIVE_INFINITY });
      if (response.statusCode !== 200) throw new Error(`tools/list answered ${response.statusCode}`);
    },
  };
}

const median = (values: number[]) => percentile(values, 50);

try {
  hub = await startMcpHub({ port: ports.hub, upstreamUrl: upstream.url });
  plainHub = await startMcpHub({ port: ports.plainHub, upstreamUrl: plainUpstream.url });
  const { db } = database.handle;

  const large = await createBenchOrganization(db, "Bench gateway");
  await addIntegration(db, large.ctx, "Echo", upstream.url);
  await addIntegration(db, large.ctx, "Plain", plainUpstream.url);
  await insertStoredIntegrations(db, large.org.id, { count: 20, toolsEach: 50 });
  for (let i = 0; i < 100; i++) {
    await createCapability(db, large.ctx, { namespace: "bench", action: `action_${i}`, code: "return 1;" });
  }
  const largeKeyList = await createBenchApiKeys(db, large.ctx, KEYS);
  const largeKeys = new ApiKeyRing(largeKeyList);
  // Access tokens are kept in a ring like keys: each grant has the same per-minute limit as a key.
  const largeTokens = new ApiKeyRing(await createBenchAccessTokens(db, large.org.id, KEYS));

  const huge = await createBenchOrganization(db, "Bench 10k");
  await insertStoredIntegrations(db, huge.org.id, { count: 200, toolsEach: 50 });
  const hugeKeys = new ApiKeyRing(await createBenchApiKeys(db, huge.ctx, KEYS));
  await closeBenchClients();

  app = await startApp({ port: ports.app, databaseUrl: database.url, env: shared });
  const gatewayUrl = `${app.origin}/api/mcp`;

  const paths = [
    {
      name: "SDK client → server-everything directly",
      client: await connect(upstream.url),
      tool: "echo",
    },
    {
      name: "→ mcp-hub 4.2 → server-everything",
      client: await connect(hub.url, { sse: true }),
      tool: hub.toolName("echo"),
    },
    {
      name: "→ Switchboard /api/mcp → server-everything",
      client: await connect(gatewayUrl, { ring: largeKeys, stateless: true }),
      tool: "echo_echo",
    },
    {
      name: "SDK client → plain echo server directly",
      client: await connect(plainUpstream.url),
      tool: "echo",
    },
    {
      name: "→ mcp-hub 4.2 → plain echo server",
      client: await connect(plainHub.url, { sse: true }),
      tool: plainHub.toolName("echo"),
    },
    {
      name: "→ Switchboard /api/mcp → plain echo server",
      client: await connect(gatewayUrl, { ring: largeKeys, stateless: true }),
      tool: "plain_echo",
    },
    // Right after the same path with a key, so the two are measured alike.
    {
      name: "→ Switchboard /api/mcp with an OAuth access token → plain echo server",
      client: await connect(gatewayUrl, { ring: largeTokens, stateless: true }),
      tool: "plain_echo",
    },
    {
      name: "→ Switchboard /api/mcp in a session → server-everything",
      client: await connectSessions(gatewayUrl, largeKeyList, largeKeys),
      tool: "echo_echo",
    },
    {
      name: "SDK client speaking 2025-06-18 (as mcp-hub does) → server-everything directly",
      client: await connect(upstream.url, { protocolVersion: "2025-06-18" }),
      tool: "echo",
    },
    {
      name: "→ Switchboard /api/mcp at 2026-07-28 (v2 client, stateless) → server-everything",
      client: await connectModern(gatewayUrl, largeKeys),
      tool: "echo_echo",
    },
    {
      name: "→ Switchboard /api/mcp at 2026-07-28 (v2 client, stateless) → plain echo server",
      client: await connectModern(gatewayUrl, largeKeys),
      tool: "plain_echo",
    },
    {
      name: "one HTTP request at 2025-11-25 without a session → Switchboard /api/mcp → plain echo server",
      client: rawCaller(gatewayUrl, largeKeys, "2025-11-25"),
      tool: "plain_echo",
    },
    {
      name: "one HTTP request at 2026-07-28 → Switchboard /api/mcp → plain echo server",
      client: rawCaller(gatewayUrl, largeKeys, "2026-07-28"),
      tool: "plain_echo",
    },
  ];
  const call = (path: (typeof paths)[number]) => async () => {
    const answer = await path.client.callTool({ name: path.tool, arguments: { message: "hi" } });
    if (answer.isError) throw new Error(`${path.name}: ${JSON.stringify(answer.content)}`);
  };
  for (const path of paths) await sample(call(path), Math.ceil(CALLS / 10), 0);
  const calls = paths.map(() => [] as number[][]);
  const WARMUP = 20;
  const callsMade = REPETITIONS * (CALLS + WARMUP);
  // The CPU time each process spends per call: where the time goes.
  const appPid = app.pid;
  const hubPids = [hub.pid, plainHub.pid];
  const cpuSources: CpuSources = {
    app: () => [appPid],
    postgres: () => postgresBackends(database.name),
    hub: () => hubPids,
    upstream: () => [upstream.process.pid, plainUpstream.process.pid].filter((pid) => pid !== undefined),
    bench: () => [process.pid],
  };
  const cpuPerCall = paths.map(() => ({}) as Record<string, number>);
  // Only the calls through Switchboard touch the database while they run.
  const before = await database.settledActivity();
  for (let r = 0; r < REPETITIONS; r++) {
    for (const [i, path] of paths.entries()) {
      const stopMeter = startCpuMeter(cpuSources);
      calls[i]?.push(await sample(call(path), CALLS, WARMUP));
      for (const [source, ms] of Object.entries(stopMeter())) {
        const spent = cpuPerCall[i] as Record<string, number>;
        spent[source] = (spent[source] ?? 0) + ms / callsMade;
      }
    }
  }
  const after = await database.settledActivity();
  // A token against a key, call for call: the same calls in turn, so both meet the machine alike.
  const [keyedTimes = [], tokenTimes = []] = await sampleInTurn(
    [call(paths[5] as (typeof paths)[number]), call(paths[6] as (typeof paths)[number])],
    REPETITIONS * CALLS,
  );
  // Eight of the paths go through Switchboard.
  const transactionsPerCall = (after.transactions - before.transactions) / (8 * callsMade);
  const p50 = calls.map((reps) => median(reps.map((times) => percentile(times, 50))));
  const p99 = calls.map((reps) => median(reps.map((times) => percentile(times, 99))));

  // Listing the large organization, one client after the other.
  const largeLister = await connectLister(gatewayUrl, largeKeys);
  const listed = await largeLister.count();
  const listTimes = await sample(() => largeLister.list(), LISTS, 5);

  // The 10,000-tool organization: one client, then 8 at once.
  const listers = [];
  for (let i = 0; i < LIST_CLIENTS; i++) listers.push(await connectLister(gatewayUrl, hugeKeys));
  const [lister] = listers;
  if (!lister) throw new Error("no lister");
  const rssBefore = app.rssMb();
  const listed10k = await lister.count();
  const single10k = await sample(() => lister.list(), Math.ceil(LISTS_10K / 2), 2);
  const stopListMeter = startCpuMeter(cpuSources);
  const concurrent10k = (
    await Promise.all(listers.map((client) => sample(() => client.list(), LISTS_10K, 2)))
  ).flat();
  const listCpu = stopListMeter();
  const perListing = (ms = 0) => ms / (LIST_CLIENTS * (LISTS_10K + 2));
  const rssAfter = app.rssMb();

  const cpuColumns = (cpu: Record<string, number>) =>
    Object.fromEntries(
      Object.keys(cpuSources).map((source) => [`${source}_cpu_ms`, Number((cpu[source] ?? 0).toFixed(2))]),
    );
  const row = (measurement: string, times: number[], samples = times.length) => ({
    measurement,
    samples,
    p50_ms: Number(percentile(times, 50).toFixed(2)),
    p99_ms: Number(percentile(times, 99).toFixed(2)),
  });
  printTable([
    ...paths.map((path, i) => ({
      measurement: `tools/call echo, ${path.name}`,
      samples: (calls[i] ?? []).reduce((sum, times) => sum + times.length, 0),
      p50_ms: Number((p50[i] ?? Number.NaN).toFixed(2)),
      p99_ms: Number((p99[i] ?? Number.NaN).toFixed(2)),
      ...cpuColumns(cpuPerCall[i] ?? {}),
    })),
    row(`tools/list, ${listed} tools, 1 client`, listTimes),
    row(`tools/list, ${listed10k} tools, 1 client`, single10k),
    {
      ...row(`tools/list, ${listed10k} tools, ${LIST_CLIENTS} clients at once`, concurrent10k),
      ...cpuColumns(
        Object.fromEntries(Object.entries(listCpu).map(([source, ms]) => [source, perListing(ms)])),
      ),
    },
  ]);
  console.log(
    `Call figures are medians of ${REPETITIONS} interleaved repetitions; *_cpu_ms is the CPU time per call (or listing) of each process: the app, its PostgreSQL server processes, mcp-hub, server-everything, and this client. Each call through Switchboard costs ${transactionsPerCall.toFixed(2)} database transactions. App memory (RSS): ${rssBefore.toFixed(0)} MB before the 10,000-tool listings, ${rssAfter.toFixed(0)} MB after.`,
  );

  const [
    direct,
    viaHub,
    viaGateway,
    plainDirect,
    plainViaHub,
    plainViaGateway,
    withToken,
    inSession,
    olderDirect,
    modern,
    plainModern,
    rawLegacy,
    rawModern,
  ] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => ({
    p50: p50[i] ?? 0,
    p99: p99[i] ?? 0,
  }));
  if (
    !direct ||
    !viaHub ||
    !viaGateway ||
    !plainDirect ||
    !plainViaHub ||
    !plainViaGateway ||
    !inSession ||
    !olderDirect ||
    !withToken ||
    !modern ||
    !plainModern ||
    !rawLegacy ||
    !rawModern
  )
    throw new Error("missing measurements");
  result("direct_call_p50_ms", direct.p50);
  result("mcphub_call_p50_ms", viaHub.p50);
  result("gateway_call_p50_ms", viaGateway.p50);
  result("gateway_call_p99_ms", viaGateway.p99);
  result("call_p50_vs_direct", viaGateway.p50 / direct.p50);
  result("call_p99_vs_direct", viaGateway.p99 / direct.p99);
  result("call_p50_vs_mcphub", viaGateway.p50 / viaHub.p50);
  result("mcphub_p50_vs_direct", viaHub.p50 / direct.p50);
  // What server-everything makes a 2025-11-25 client wait, and each proxy's own time on top of its upstream's.
  result("direct_2025_06_18_call_p50_ms", olderDirect.p50);
  result("upstream_priming_wait_ms", direct.p50 - olderDirect.p50);
  result("added_p50_vs_mcphub", (viaGateway.p50 - direct.p50) / (viaHub.p50 - olderDirect.p50));
  result("session_call_p50_ms", inSession.p50);
  result("session_call_p50_vs_direct", inSession.p50 / direct.p50);
  result("session_call_p50_vs_stateless", inSession.p50 / viaGateway.p50);
  // A 2026-07-28 call beside a 2025-11-25 session's and a 2025 client's without a session (the lone-call fast path).
  result("modern_call_p50_ms", modern.p50);
  result("modern_call_p99_ms", modern.p99);
  result("modern_call_p50_vs_stateless", modern.p50 / viaGateway.p50);
  result("modern_call_p50_vs_session", modern.p50 / inSession.p50);
  result("plain_modern_call_p50_vs_stateless", plainModern.p50 / plainViaGateway.p50);
  result("modern_app_cpu_ms_per_call", cpuPerCall[8]?.app ?? Number.NaN);
  // The same without the SDK clients' own time: one HTTP request per call, at each revision.
  result("raw_stateless_call_p50_ms", rawLegacy.p50);
  result("raw_modern_call_p50_ms", rawModern.p50);
  result("raw_modern_call_p50_vs_stateless", rawModern.p50 / rawLegacy.p50);
  result("raw_modern_app_cpu_ms_per_call", cpuPerCall[11]?.app ?? Number.NaN);
  result("raw_stateless_app_cpu_ms_per_call", cpuPerCall[10]?.app ?? Number.NaN);
  result("plain_call_p50_vs_direct", plainViaGateway.p50 / plainDirect.p50);
  result("plain_call_p50_vs_mcphub", plainViaGateway.p50 / plainViaHub.p50);
  result("plain_mcphub_p50_vs_direct", plainViaHub.p50 / plainDirect.p50);
  result("token_call_p50_ms", withToken.p50);
  result("token_call_p50_vs_key", percentile(tokenTimes, 50) / percentile(keyedTimes, 50));
  result("token_call_p99_vs_key", percentile(tokenTimes, 99) / percentile(keyedTimes, 99));
  result("gateway_db_transactions_per_call", transactionsPerCall);
  result("gateway_app_cpu_ms_per_call", cpuPerCall[2]?.app ?? Number.NaN);
  result("mcphub_cpu_ms_per_call", cpuPerCall[1]?.hub ?? Number.NaN);
  result("list_tools", listed);
  result("list_p50_ms", percentile(listTimes, 50));
  result("list10k_tools", listed10k);
  result("list10k_single_p50_ms", percentile(single10k, 50));
  result("list10k_p50_ms", percentile(concurrent10k, 50));
  result("list10k_p99_ms", percentile(concurrent10k, 99));
  result("list10k_app_cpu_ms_per_listing", perListing(listCpu.app));
  result("list10k_rss_mb", rssAfter);
} finally {
  await clients.closeAll();
  await Promise.allSettled(listerClients.map((client) => client.close()));
  await app?.stop();
  await hub?.stop();
  await plainHub?.stop();
  await plainUpstream.stop();
  await upstream.stop();
  await database.drop();
}
process.exit(0);
