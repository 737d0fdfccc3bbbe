import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { dashboardQueries, rangeOf } from "@/lib/usage/dashboard";
import { percentile, printTable, result, sample } from "../stats";

/**
 * The dashboard's queries for one organization over 30 days, on PostgreSQL with 1,000,000 usage records over
 * 90 days for 50 organizations: with the usage indexes, then on the same data without them (ratio).
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("bench/usage runs on PostgreSQL: set DATABASE_URL=postgres://…");
  process.exit(2);
}
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const ORGS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

// A database of its own, dropped at the end.
const name = `switchboard_bench_usage_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const target = new URL(databaseUrl);
target.pathname = `/${name}`;
const handle = openPostgres(target.toString(), { max: 10 });
const sqlClient = postgres(target.toString(), { max: 1, onnotice: () => {} });

try {
  await migrateDatabase(handle);
  const started = performance.now();
  await sqlClient.unsafe(`
    insert into organizations (name, slug)
      select 'Org ' || n, 'org-' || n from generate_series(1, ${ORGS}) as n;
    insert into mcp_integrations (organization_id, name, slug, transport, url)
      select o.id, 'Server ' || n, 'server_' || n, 'streamable-http', 'https://example.com/mcp'
      from organizations o cross join generate_series(1, 5) as n;
    insert into usage_records (organization_id, occurred_at, user_id, api_key_id, surface, tool, source,
                               integration_id, outcome, latency_ms)
      with orgs as (select array_agg(id order by slug) as ids from organizations)
      select s.org, s.at, s.user_id, s.key_id, s.surface, s.tool, 'integration', i.id, s.outcome, s.latency
      from (
        select (select ids from orgs)[1 + g % ${ORGS}] as org,
               now() - (random() * interval '90 days') as at,
               case when g % 2 = 0 then gen_random_uuid() end as user_id,
               case when g % 2 = 1 then gen_random_uuid() end as key_id,
               (array['chat','rest','gateway','capability'])[1 + g % 4] as surface,
               'server_' || (1 + g % 5) as slug,
               'server_' || (1 + g % 5) || '_tool_' || (g % 40) as tool,
               case when g % 20 = 0 then 'tool_error' when g % 97 = 0 then 'failed' else 'ok' end as outcome,
               (random() * 800)::int as latency
        from generate_series(1, ${RECORDS}) as g
      ) s
      join mcp_integrations i on i.organization_id = s.org and i.slug = s.slug;
    analyze;
  `);
  const filledSeconds = (performance.now() - started) / 1000;
  const [org] = await sqlClient<{ id: string }[]>`select id from organizations where slug = 'org-1'`;
  if (!org) throw new Error("no organization");
  const { range } = rangeOf("30d");

  async function timeQueries() {
    const times: Record<string, number> = {};
    for (const [query, run] of Object.entries(dashboardQueries)) {
      const samples = await sample(() => run(handle.db, org!.id, range), RUNS, 2);
      times[query] = percentile(samples, 50);
    }
    return times;
  }
  const indexed = await timeQueries();
  await sqlClient.unsafe(
    "drop index usage_records_org_time_idx; drop index usage_records_org_tool_time_idx; analyze usage_records;",
  );
  const plain = await timeQueries();

  printTable(
    Object.keys(indexed).map((query) => ({
      query,
      indexed_p50_ms: Number((indexed[query] ?? 0).toFixed(2)),
      without_indexes_p50_ms: Number((plain[query] ?? 0).toFixed(2)),
    })),
  );
  const maxIndexed = Math.max(...Object.values(indexed));
  const maxPlain = Math.max(...Object.values(plain));
  console.log(
    `${RECORDS.toLocaleString("en")} records for ${ORGS} organizations filled in ${filledSeconds.toFixed(1)} s.`,
  );
  result("records", RECORDS);
  result("max_query_ms", maxIndexed);
  result("max_query_without_indexes_ms", maxPlain);
  result("speedup", maxPlain / maxIndexed);
} finally {
  await sqlClient.end();
  await handle.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
