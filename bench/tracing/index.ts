import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { startEverything } from "../../tests/fixtures/mcp/start-fixture";
import { ApiKeyRing } from "../api-key-ring";
import { benchClients, type CallParams } from "../gateway/clients";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import { addIntegration, closeBenchClients, createBenchApiKeys, createBenchOrganization } from "../seed";
import { percentile, printTable, result, sample } from "../stats";

/**
 * What tracing costs: two instances of the app as deployed (`npm start`'s server on PostgreSQL, defaults for
 * logging and the rate limit), one without an OTLP endpoint and one exporting every span to a local OTLP/HTTP
 * receiver in this process, measured side by side in one run: BENCH_CALLS (500) sequential REST invokes of
 * node_knowledge_retriever, and gateway tools/call of an integration's echo (server-everything over Streamable
 * HTTP) by a client that keeps no session and by clients in sessions (one per key, as a session belongs to the
 * key that opened it), three repetitions interleaved, medians of each repetition's p50.
 */
const databaseUrl = requireDatabaseUrl("tracing");
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const REPETITIONS = 3;
const basePort = Number(process.env.BENCH_PORT ?? 3228);
const ports = { upstream: basePort, untraced: basePort + 1, traced: basePort + 2 };

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "tracing");
const upstream = await startEverything("streamableHttp", { port: ports.upstream });
const apps: RunningApp[] = [];
const clients = benchClients();

// The receiver reads each export to its end and counts it, as a collector would accept it, without decoding.
let exports = 0;
let exportedBytes = 0;
const receiver = createServer(async (req, res) => {
  for await (const chunk of req) exportedBytes += (chunk as Buffer).length;
  exports++;
  res.writeHead(200, { "content-type": "application/json" });
  res.end("{}");
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

try {
  const { db } = database.handle;
  const { ctx } = await createBenchOrganization(db, "Bench tracing");
  await createKnowledgeNode(db, ctx, { name: "router-1", content: "Knowledge about router-1." });
  await addIntegration(db, ctx, "Echo", upstream.url);
  const keyList = await createBenchApiKeys(db, ctx, 20);
  const keys = new ApiKeyRing(keyList);
  await closeBenchClients();

  apps.push(await startApp({ port: ports.untraced, databaseUrl: database.url, env: shared }));
  apps.push(
    await startApp({
      port: ports.traced,
      databaseUrl: database.url,
      // Exported in batches as soon as 50 ms have passed, so the export's cost falls inside the measurement.
      env: { ...shared, OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: "50" },
    }),
  );

  const body = JSON.stringify({
    tool_name: "node_knowledge_retriever",
    params: { node_names: ["router-1"] },
  });
  const invoke = (app: RunningApp) => async () => {
    const answer = await request(`${app.origin}/api/mcp/invoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.next()}`, "content-type": "application/json" },
      body,
    });
    await answer.body.dump();
    if (answer.statusCode !== 200) throw new Error(`invoke answered ${answer.statusCode}`);
  };
  const echo = (client: { callTool(params: CallParams): Promise<Record<string, unknown>> }) => async () => {
    const answer = await client.callTool({ name: "echo_echo", arguments: { message: "hi" } });
    if (answer.isError) throw new Error(JSON.stringify(answer.content));
  };
  const paths = [];
  for (const app of apps) {
    const tracing = app.port === ports.traced ? "on" : "off";
    const gatewayUrl = `${app.origin}/api/mcp`;
    paths.push({ name: `REST invoke, tracing ${tracing}`, run: invoke(app) });
    paths.push({
      name: `gateway tools/call without a session, tracing ${tracing}`,
      run: echo(await clients.connect(gatewayUrl, { ring: keys, stateless: true })),
    });
    paths.push({
      name: `gateway tools/call in a session, tracing ${tracing}`,
      run: echo(await clients.connectSessions(gatewayUrl, keyList, keys)),
    });
  }
  const p50s = paths.map(() => [] as number[]);
  for (let r = 0; r < REPETITIONS; r++)
    for (const [i, path] of paths.entries()) p50s[i]?.push(percentile(await sample(path.run, CALLS, 20), 50));
  const median = (i: number) => percentile(p50s[i] ?? [], 50);
  printTable(paths.map((path, i) => ({ measurement: path.name, p50_ms: Number(median(i).toFixed(2)) })));
  const [restOff, gatewayOff, sessionOff, restOn, gatewayOn, sessionOn] = [0, 1, 2, 3, 4, 5].map(median) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  console.log(
    `The traced instance sent ${exports} exports (${Math.round(exportedBytes / 1024)} KB) of spans.`,
  );
  result("rest_tracing_overhead_p50", restOn / restOff);
  result("gateway_tracing_overhead_p50", gatewayOn / gatewayOff);
  result("session_tracing_overhead_p50", sessionOn / sessionOff);
  result("tracing_overhead_p50", Math.max(restOn / restOff, gatewayOn / gatewayOff, sessionOn / sessionOff));
  result("trace_exports", exports);
} finally {
  await clients.closeAll();
  for (const app of apps) await app.stop();
  receiver.close();
  await upstream.stop();
  await database.drop();
}
process.exit(0);
