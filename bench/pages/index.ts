import { sql } from "drizzle-orm";
import { Client } from "undici";
import { createCapability } from "@/lib/capabilities/store";
import { postgresBackends, startCpuMeter } from "../cpu";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import { createBenchOrganization, createBenchOwner, insertStoredIntegrations } from "../seed";
import { signIn } from "../sign-in";
import { percentile, printTable, result } from "../stats";

/**
 * Time to first byte, and to the last, of the dashboard (/admin) against the Overview page (/) for a signed-in owner of a small
 * organization (3 integrations, 3 capabilities, 2,000 usage records over the last 30 days, a day of health
 * checks), on the production build served by `npm start` on PostgreSQL, logging at its default.
 * BENCH_FETCHES (30) sequential fetches of each after a warm-up, interleaved, over one keep-alive connection;
 * with the CPU time each page costs the app and PostgreSQL.
 */
const databaseUrl = requireDatabaseUrl("pages");
const FETCHES = Number(process.env.BENCH_FETCHES ?? 30);
const WARMUP = 5;
const port = Number(process.env.BENCH_PORT ?? 3225);

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "pages");
let app: RunningApp | undefined;
let http: Client | undefined;

try {
  const { db } = database.handle;
  const { org, ctx } = await createBenchOrganization(db, "Bench pages");
  const owner = await createBenchOwner(db, org.id);
  await insertStoredIntegrations(db, org.id, { count: 3, toolsEach: 8 });
  for (const action of ["lookup", "summarize", "notify"])
    await createCapability(db, ctx, { namespace: "bench", action, code: "return 1;" });
  await db.execute(sql`
    insert into usage_records (organization_id, occurred_at, api_key_id, surface, tool, source, integration_id,
                               outcome, latency_ms)
    select i.organization_id, now() - random() * interval '30 days', gen_random_uuid(),
           (array['chat','rest','gateway','capability'])[1 + g % 4], i.slug || '_tool_' || (g % 8), 'integration',
           i.id, case when g % 20 = 0 then 'tool_error' when g % 97 = 0 then 'failed' else 'ok' end,
           (random() * 800)::int
    from generate_series(1, 2000) as g
    join lateral (select * from mcp_integrations where organization_id = ${org.id} order by random() limit 1) i on true`);
  await db.execute(sql`
    insert into integration_health_checks (integration_id, organization_id, checked_at, status, latency_ms)
    select i.id, i.organization_id, now() - (h || ' minutes')::interval * 5, 'up', 20 + h % 30
    from mcp_integrations i cross join generate_series(1, 288) as h
    where i.organization_id = ${org.id}`);

  app = await startApp({ port, databaseUrl: database.url, env: shared });
  const cookie = await signIn(app.origin, owner);
  http = new Client(app.origin);
  const client = http;

  /** Time to the first byte of the body, and to the last, of one page. */
  const load = async (path: string, expect: string) => {
    const started = performance.now();
    const response = await client.request({ method: "GET", path, headers: { cookie } });
    let ttfb = Number.NaN;
    let html = "";
    for await (const chunk of response.body) {
      if (Number.isNaN(ttfb)) ttfb = performance.now() - started;
      html += chunk;
    }
    const total = performance.now() - started;
    if (response.statusCode !== 200 || !html.includes(expect))
      throw new Error(`GET ${path} answered ${response.statusCode} without "${expect}".`);
    return { ttfb, total, bytes: Buffer.byteLength(html) };
  };
  const pages = [
    { name: "Overview (/)", path: "/", expect: org.name },
    { name: "Dashboard (/admin)", path: "/admin", expect: "Tool calls over time" },
  ];
  for (let i = 0; i < WARMUP; i++) for (const page of pages) await load(page.path, page.expect);
  const times = pages.map(() => ({
    ttfb: [] as number[],
    total: [] as number[],
    bytes: 0,
    cpu: {} as Record<string, number>,
  }));
  // The CPU time of the app and of its PostgreSQL server processes per page: which of them the time goes to.
  const appPid = app.pid;
  const cpuSources = { app: () => [appPid], postgres: () => postgresBackends(database.name) };
  for (let i = 0; i < FETCHES; i++) {
    for (const [p, page] of pages.entries()) {
      const stopMeter = startCpuMeter(cpuSources);
      const { ttfb, total, bytes } = await load(page.path, page.expect);
      const measured = times[p];
      if (!measured) continue;
      measured.bytes = bytes;
      measured.ttfb.push(ttfb);
      measured.total.push(total);
      for (const [source, ms] of Object.entries(stopMeter()))
        measured.cpu[source] = (measured.cpu[source] ?? 0) + ms / FETCHES;
    }
  }

  printTable(
    pages.map((page, p) => ({
      page: page.name,
      fetches: times[p]?.ttfb.length ?? 0,
      ttfb_p50_ms: Number(percentile(times[p]?.ttfb ?? [], 50).toFixed(1)),
      ttfb_p90_ms: Number(percentile(times[p]?.ttfb ?? [], 90).toFixed(1)),
      total_p50_ms: Number(percentile(times[p]?.total ?? [], 50).toFixed(1)),
      html_kb: Number(((times[p]?.bytes ?? 0) / 1024).toFixed(1)),
      app_cpu_ms: Number((times[p]?.cpu.app ?? 0).toFixed(1)),
      postgres_cpu_ms: Number((times[p]?.cpu.postgres ?? 0).toFixed(1)),
    })),
  );
  console.log("*_cpu_ms: CPU time per page of the app and of its PostgreSQL server processes (means).");
  const [overview, dashboard] = times;
  if (!overview || !dashboard) throw new Error("missing measurements");
  result("overview_ttfb_p50_ms", percentile(overview.ttfb, 50));
  result("dashboard_ttfb_p50_ms", percentile(dashboard.ttfb, 50));
  result("dashboard_vs_overview_ttfb", percentile(dashboard.ttfb, 50) / percentile(overview.ttfb, 50));
  // The dashboard streams its figures after its first byte: the whole page, to its last byte, for comparison.
  result("overview_total_p50_ms", percentile(overview.total, 50));
  result("dashboard_total_p50_ms", percentile(dashboard.total, 50));
  result("dashboard_vs_overview_total", percentile(dashboard.total, 50) / percentile(overview.total, 50));
  result("overview_app_cpu_ms", overview.cpu.app ?? Number.NaN);
  result("dashboard_app_cpu_ms", dashboard.cpu.app ?? Number.NaN);
  result("dashboard_postgres_cpu_ms", dashboard.cpu.postgres ?? Number.NaN);
} finally {
  await http?.close();
  await app?.stop();
  await database.drop();
}
process.exit(0);
