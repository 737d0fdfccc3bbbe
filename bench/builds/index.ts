import { existsSync } from "node:fs";
import path from "node:path";
import { startFixture } from "../../tests/fixtures/mcp/start-fixture";
import { ApiKeyRing } from "../api-key-ring";
import { processCpuMs } from "../cpu";
import { rawCaller } from "../gateway/clients";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import {
  addIntegration,
  closeBenchClients,
  createBenchApiKeys,
  createBenchOrganization,
  insertStoredIntegrations,
} from "../seed";
import { percentile, printTable, result, sampleInTurn } from "../stats";

/**
 * This build against another (BENCH_BASELINE: a checkout of the app with its production build, an earlier commit
 * say), side by side in one run: both served as deployed on the same PostgreSQL database (migrated by this build;
 * an earlier build reads it as its own), called in turn, one call each per round, so both meet the machine alike.
 * What is measured is the gateway's lone tools/call without a session, as one HTTP request (no SDK client), at
 * 2025-11-25 and at 2026-07-28, to a plain echo server, in the gateway bench's organization shape: each build's
 * p50 and the CPU time its process spends per call, over BENCH_ROUNDS (10) rounds of BENCH_CALLS (1,000) calls.
 */
const databaseUrl = requireDatabaseUrl("builds");
const baseline = process.env.BENCH_BASELINE;
if (!baseline || !existsSync(path.join(baseline, ".next", "BUILD_ID"))) {
  console.error(
    "Set BENCH_BASELINE to a checkout of the app with its production build (npx next build there).",
  );
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const basePort = Number(process.env.BENCH_PORT ?? 3240);

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "builds");
const plain = await startFixture("echo");
const apps: RunningApp[] = [];

try {
  const { db } = database.handle;
  const { ctx, org } = await createBenchOrganization(db, "Bench builds");
  await addIntegration(db, ctx, "Plain", plain.url);
  await insertStoredIntegrations(db, org.id, { count: 20, toolsEach: 50 });
  // Both builds' calls count against the same keys: enough for two fast callers within a minute.
  const keys = new ApiKeyRing(await createBenchApiKeys(db, ctx, 150));
  await closeBenchClients();
  const builds = [
    { name: "baseline", root: baseline },
    { name: "this build", root: undefined },
  ];
  for (const [i, build] of builds.entries())
    apps.push(
      await startApp({ port: basePort + i, databaseUrl: database.url, env: shared, root: build.root }),
    );

  const rows: Record<string, string | number>[] = [];
  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    const callers = apps.map((app) => rawCaller(`${app.origin}/api/mcp`, keys, revision));
    const calls = callers.map((caller) => async () => {
      const answer = await caller.callTool({ name: "plain_echo", arguments: { message: "hi" } });
      if (answer.isError) throw new Error(JSON.stringify(answer.content));
    });
    await sampleInTurn(calls, Math.ceil(CALLS / 2));
    const cpuMs = apps.map(() => 0);
    const p50s = apps.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      const before = apps.map((app) => processCpuMs(app.pid));
      const times = await sampleInTurn(calls, CALLS, 0);
      apps.forEach((app, i) => {
        cpuMs[i] = (cpuMs[i] ?? 0) + processCpuMs(app.pid) - (before[i] ?? 0);
        p50s[i]?.push(percentile(times[i] ?? [], 50));
      });
    }
    const figures = builds.map((build, i) => ({
      build: build.name,
      revision,
      p50_ms: percentile(p50s[i] ?? [], 50),
      app_cpu_ms_per_call: (cpuMs[i] ?? 0) / (ROUNDS * CALLS),
    }));
    rows.push(...figures.map((row) => ({ ...row, p50_ms: Number(row.p50_ms.toFixed(3)) })));
    const [old, now] = figures as [(typeof figures)[number], (typeof figures)[number]];
    const tag = revision === "2025-11-25" ? "stateless" : "modern";
    result(`${tag}_call_p50_vs_baseline`, now.p50_ms / old.p50_ms);
    result(`${tag}_app_cpu_per_call_vs_baseline`, now.app_cpu_ms_per_call / old.app_cpu_ms_per_call);
  }
  printTable(rows);
} finally {
  for (const app of apps) await app.stop();
  await plain.stop();
  await database.drop();
}
process.exit(0);
