import { createServer } from "node:http";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { startEverything } from "../../tests/fixtures/mcp/start-fixture";
import { type CpuSources, postgresBackends, startCpuMeter } from "../cpu";
import { type LoadResult, runLoad, runLoads } from "../load";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import { addIntegration, closeBenchClients, createBenchApiKeys, createBenchOrganization } from "../seed";
import { percentile, printTable, result, sample } from "../stats";
import { balancerRow, measureBehindBalancer } from "./behind-balancer";

/**
 * REST throughput of the app as deployed: the production build served by `npm start` on PostgreSQL, loaded over
 * HTTP from this process with 32 connections for BENCH_SECONDS (10) each. The baseline is a trivial route of the
 * same build (GET /api/ping); against it, POST /api/mcp/invoke of the built-in node_knowledge_retriever (3 nodes)
 * and of an integration's echo (server-everything over Streamable HTTP). For reference, a bare Node server
 * answering the built-in's JSON; two instances on the same database loaded together against one; and each path
 * one request at a time, with the database transactions it costs (from PostgreSQL's statistics). Each load run
 * also reports the CPU time per request of the app, PostgreSQL, the upstream and the load generator.
 *
 * With BENCH_CONTAINERS=1 (Docker and HAProxy on the PATH) it then measures the deployment itself: the built-in's
 * call through HAProxy (deploy/haproxy.cfg) to two containers of the image against one (`two_vs_one_instances`).
 *
 * Logging is at its default. The rate limit is counted on every request, its database write on the path, but at
 * its default of 600 a minute a key it would refuse almost all of a load test, and only API_RATE_LIMIT_PER_MINUTE
 * sets it: the app runs with 100,000,000 (0 would turn the counting off).
 */
const databaseUrl = requireDatabaseUrl("rest");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const repeat = Number(process.env.BENCH_REPEAT ?? 1);
const connections = 32;
const basePort = Number(process.env.BENCH_PORT ?? 3210);
const ports = { app: basePort, second: basePort + 1, bare: basePort + 2, upstream: basePort + 3 };
const RATE_LIMIT = "100000000";
const SEQUENTIAL = 200;

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "rest");
const upstream = await startEverything("streamableHttp", { port: ports.upstream });
const apps: RunningApp[] = [];
let bare: ReturnType<typeof createServer> | undefined;

try {
  const { db } = database.handle;
  const { ctx } = await createBenchOrganization(db, "Bench REST");
  for (const name of ["router-1", "router-2", "db-primary"]) {
    await createKnowledgeNode(db, ctx, {
      name,
      content: `Knowledge about ${name}.`,
      metadata: { bench: true },
    });
  }
  await addIntegration(db, ctx, "Echo", upstream.url);
  const [key] = await createBenchApiKeys(db, ctx);
  await closeBenchClients();

  const env = { ...shared, API_RATE_LIMIT_PER_MINUTE: RATE_LIMIT };
  apps.push(await startApp({ port: ports.app, databaseUrl: database.url, env }));
  apps.push(await startApp({ port: ports.second, databaseUrl: database.url, env }));
  const [app, second] = apps as [RunningApp, RunningApp];

  const headers = { Authorization: `Bearer ${key}` };
  const builtinBody = JSON.stringify({
    tool_name: "node_knowledge_retriever",
    params: { node_names: ["router-1", "router-2", "db-primary"] },
  });
  const integrationBody = JSON.stringify({ tool_name: "echo_echo", params: { message: "hi" } });
  type Target = { url: string; body?: string; headers?: Record<string, string> };
  const targets: Record<"trivial" | "builtin" | "integration", (origin: string) => Target> = {
    trivial: (origin) => ({ url: `${origin}/api/ping` }),
    builtin: (origin) => ({ url: `${origin}/api/mcp/invoke`, body: builtinBody, headers }),
    integration: (origin) => ({ url: `${origin}/api/mcp/invoke`, body: integrationBody, headers }),
  };

  const send = async ({ url, body, headers: sent }: Target) => {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      headers: { "content-type": "application/json", ...sent },
      body,
    });
    return { status: response.status, text: await response.text() };
  };
  // Each answers once before any load, or the bench stops with what it said.
  const answers: Record<string, string> = {};
  for (const instance of apps) {
    for (const [name, target] of Object.entries(targets)) {
      const { status, text } = await send(target(instance.origin));
      if (status !== 200) throw new Error(`${name} on port ${instance.port} answered ${status}: ${text}`);
      answers[name] = text;
    }
  }

  // The reference: the built-in's answer from a bare Node server, no framework, no database.
  bare = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(answers.builtin);
    });
  });
  await new Promise<void>((resolve) => bare?.listen(ports.bare, "127.0.0.1", resolve));
  const bareTarget = { url: `http://127.0.0.1:${ports.bare}/api/mcp/invoke`, body: builtinBody, headers };

  // Warm-up: every path of both instances, and the bare server.
  for (const instance of apps)
    for (const target of Object.values(targets))
      await runLoad({ ...target(instance.origin), connections, seconds: 2 });
  await runLoad({ ...bareTarget, connections, seconds: 1 });

  // The CPU time each process spends in a run, per request: where the time goes on a machine that is full.
  const cpuSources = (instances: RunningApp[]): CpuSources => ({
    app: () => instances.map((instance) => instance.pid),
    postgres: () => postgresBackends(database.name),
    upstream: () => (upstream.process.pid ? [upstream.process.pid] : []),
    bench: () => [process.pid],
  });
  interface Run {
    results: LoadResult[];
    rps: number;
    cpuMsPerRequest: Record<string, number>;
  }
  const measure = async (instances: RunningApp[], loads: Parameters<typeof runLoad>[0][]): Promise<Run> => {
    const stopMeter = startCpuMeter(cpuSources(instances));
    const results = await runLoads(loads);
    const cpu = stopMeter();
    const requests = results.reduce((sum, run) => sum + run.requests, 0);
    return {
      results,
      rps: results.reduce((sum, run) => sum + run.rps, 0),
      cpuMsPerRequest: Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, ms / requests])),
    };
  };
  const runs: Record<"trivial" | "builtin" | "integration" | "bare" | "two", Run[]> = {
    trivial: [],
    builtin: [],
    integration: [],
    bare: [],
    two: [],
  };
  for (let r = 0; r < repeat; r++) {
    for (const [name, target] of Object.entries(targets))
      runs[name as keyof typeof targets].push(
        await measure([app], [{ ...target(app.origin), connections, seconds }]),
      );
    runs.bare.push(await measure([], [{ ...bareTarget, connections, seconds }]));
    // The same load split over two instances on the same database.
    runs.two.push(
      await measure(
        [app, second],
        [
          { ...targets.builtin(app.origin), connections: connections / 2, seconds },
          { ...targets.builtin(second.origin), connections: connections / 2, seconds },
        ],
      ),
    );
  }

  // One request at a time, on a quiet app: its latency, and the database work each request does.
  const alone: Record<string, { p50: number; transactions: number; rowsWritten: number }> = {};
  let before = await database.settledActivity();
  for (const [name, target] of Object.entries(targets)) {
    const times = await sample(() => send(target(app.origin)), SEQUENTIAL, 0);
    const after = await database.settledActivity();
    alone[name] = {
      p50: percentile(times, 50),
      transactions: (after.transactions - before.transactions) / SEQUENTIAL,
      rowsWritten: (after.rowsWritten - before.rowsWritten) / SEQUENTIAL,
    };
    before = after;
  }

  const median = (values: number[]) => percentile(values, 50);
  const rps = (name: keyof typeof runs) => median(runs[name].map((run) => run.rps));
  const rows: [string, string, keyof typeof runs][] = [
    ["GET /api/ping (trivial route, baseline)", "1", "trivial"],
    ["POST /api/mcp/invoke node_knowledge_retriever", "1", "builtin"],
    ["POST /api/mcp/invoke echo_echo (integration)", "1", "integration"],
    ["bare Node http, same JSON (reference)", "-", "bare"],
    ["POST /api/mcp/invoke node_knowledge_retriever", "2 (16+16)", "two"],
  ];
  printTable(
    rows.map(([path, instances, name]) => {
      const results = runs[name].flatMap((run) => run.results);
      const latencies = results.flatMap((run) => run.latenciesMs);
      const statuses: Record<number, number> = {};
      for (const run of results)
        for (const [status, n] of Object.entries(run.statuses))
          statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n;
      const cpu = (source: string) => median(runs[name].map((run) => run.cpuMsPerRequest[source] ?? 0));
      return {
        path,
        instances,
        requests: results.reduce((sum, run) => sum + run.requests, 0),
        rps: rps(name).toFixed(0),
        p50_ms: percentile(latencies, 50).toFixed(2),
        p99_ms: percentile(latencies, 99).toFixed(2),
        statuses: Object.entries(statuses)
          .map(([status, n]) => `${status}×${n}`)
          .join(" "),
        ...Object.fromEntries(
          Object.keys(cpuSources([])).map((source) => [`${source}_cpu_ms`, cpu(source).toFixed(2)]),
        ),
      };
    }),
  );
  console.log(
    "*_cpu_ms: CPU time per request of the app, its PostgreSQL server processes, the upstream MCP server and this process (load and, for the reference row, the bare server).",
  );
  printTable(
    Object.entries(alone).map(([name, figures]) => ({
      [`one request at a time (${SEQUENTIAL})`]: name,
      p50_ms: figures.p50.toFixed(2),
      db_transactions_per_request: figures.transactions.toFixed(2),
      db_rows_written_per_request: figures.rowsWritten.toFixed(2),
    })),
  );
  console.log(
    `App memory after the runs: ${apps.map((a) => `${a.rssMb().toFixed(0)} MB`).join(", ")} (RSS).`,
  );

  const builtinLatencies = runs.builtin.flatMap((run) => run.results.flatMap((r) => r.latenciesMs));
  const appCpu = (name: keyof typeof runs) => median(runs[name].map((run) => run.cpuMsPerRequest.app ?? 0));
  result("trivial_next_rps", rps("trivial"));
  result("builtin_rps", rps("builtin"));
  result("integration_rps", rps("integration"));
  result("builtin_p50_ms", percentile(builtinLatencies, 50));
  result("builtin_p99_ms", percentile(builtinLatencies, 99));
  result("builtin_vs_trivial_next", rps("builtin") / rps("trivial"));
  result("integration_vs_trivial_next", rps("integration") / rps("trivial"));
  result("bare_node_rps", rps("bare"));
  result("trivial_next_vs_bare_node", rps("trivial") / rps("bare"));
  result("rps_vs_baseline", rps("builtin") / rps("bare"));
  for (const [name, figures] of Object.entries(alone)) {
    result(`${name}_sequential_p50_ms`, figures.p50);
    result(`${name}_db_transactions_per_request`, figures.transactions);
  }
  result("trivial_app_cpu_ms_per_request", appCpu("trivial"));
  result("builtin_app_cpu_ms_per_request", appCpu("builtin"));
  result("integration_app_cpu_ms_per_request", appCpu("integration"));
  result("two_instances_rps", rps("two"));
  result("two_vs_one_processes", rps("two") / rps("builtin"));
  result(
    "errors",
    [...runs.trivial, ...runs.builtin, ...runs.integration, ...runs.two]
      .flatMap((run) => run.results)
      .reduce((sum, run) => sum + run.errors, 0),
  );

  if (process.env.BENCH_CONTAINERS === "1") {
    // The processes above would take the containers' CPU.
    await Promise.all(apps.splice(0).map((instance) => instance.stop()));
    const figures = await measureBehindBalancer({
      databaseUrl: database.url,
      env: {
        AUTH_SECRET: shared.AUTH_SECRET ?? "",
        MCP_ALLOW_PRIVATE_NETWORKS: "true",
        API_RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
      },
      basePort: basePort + 10,
      request: { path: "/api/mcp/invoke", body: builtinBody, headers },
      connections,
      seconds,
      repeat,
    });
    printTable([
      balancerRow("HAProxy → POST /api/mcp/invoke node_knowledge_retriever", "1 container", figures.one),
      balancerRow("HAProxy → POST /api/mcp/invoke node_knowledge_retriever", "2 containers", figures.two),
    ]);
    const containerRps = (runs: typeof figures.one) =>
      percentile(
        runs.map((run) => run.rps),
        50,
      );
    result("one_container_rps", containerRps(figures.one));
    result("two_containers_rps", containerRps(figures.two));
    result("two_vs_one_instances", containerRps(figures.two) / containerRps(figures.one));
  } else {
    console.log("two_vs_one_instances (containers behind HAProxy) is measured with BENCH_CONTAINERS=1.");
  }
} finally {
  bare?.close();
  await Promise.all(apps.map((app) => app.stop()));
  await upstream.stop();
  await database.drop();
}
process.exit(0);
