import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { createOrganization } from "@/lib/orgs/organizations";
import { needsBuild } from "../../scripts/build-state";
import { runLoad } from "../load";
import { percentile, printTable, result } from "../stats";

/**
 * Throughput and latency of POST /api/mcp/invoke (node_knowledge_retriever, 3 nodes) on `next start` over
 * PostgreSQL, at 32 concurrent connections, beside a bare Node http server answering the same JSON.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("bench/rest runs on PostgreSQL: set DATABASE_URL=postgres://…");
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 32;
const port = Number(process.env.BENCH_PORT ?? 3210);

const handle = openPostgres(databaseUrl);
await migrateDatabase(handle);
const org = await createOrganization(handle.db, { name: "Bench", slug: `bench-${Date.now()}` });
const ctx = { orgId: org.id, role: "owner" as const, isSuperadmin: false, apiKeyId: "bench" };
for (const name of ["router-1", "router-2", "db-primary"]) {
  await createKnowledgeNode(handle.db, ctx, {
    name,
    content: `Knowledge about ${name}.`,
    metadata: { bench: true },
  });
}
const { key } = await createApiKey(handle.db, ctx, { name: "bench" });
await handle.close();

if (needsBuild()) {
  const build = spawnSync("npx", ["next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(1);
}
const app = spawn("npx", ["next", "start", "--port", String(port)], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    API_RATE_LIMIT_PER_MINUTE: "0",
    NEXT_TELEMETRY_DISABLED: "1",
  },
  stdio: "ignore",
  detached: true,
});
const stopApp = () => {
  try {
    process.kill(-(app.pid ?? 0), "SIGTERM");
  } catch {}
};
process.on("exit", stopApp);

const body = JSON.stringify({
  tool_name: "node_knowledge_retriever",
  params: { node_names: ["router-1", "router-2", "db-primary"] },
});
const headers = { Authorization: `Bearer ${key}` };
const invokeUrl = `http://127.0.0.1:${port}/api/mcp/invoke`;
let answer = "";
for (let i = 0; i < 120 && !answer; i++) {
  try {
    const response = await fetch(invokeUrl, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body,
    });
    if (response.ok) answer = await response.text();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
if (!answer) throw new Error("The app did not answer in time.");

// The baseline: the same answer from a bare Node server, no framework, no database.
const bare = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer);
  });
}).listen(0, "127.0.0.1");
await new Promise((resolve) => bare.once("listening", resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/mcp/invoke`;

// Warm both up, then measure each for the same time.
await runLoad({ url: invokeUrl, body, headers, connections, seconds: 2 });
const appRun = await runLoad({ url: invokeUrl, body, headers, connections, seconds });
const bareRun = await runLoad({ url: bareUrl, body, headers, connections, seconds });
bare.close();
stopApp();

printTable(
  [
    ["Switchboard POST /api/mcp/invoke", appRun],
    ["bare Node http (baseline)", bareRun],
  ].map(([name, run]) => {
    const r = run as typeof appRun;
    return {
      server: name as string,
      requests: r.requests,
      rps: r.rps.toFixed(0),
      p50_ms: percentile(r.latenciesMs, 50).toFixed(2),
      p99_ms: percentile(r.latenciesMs, 99).toFixed(2),
      errors: r.errors,
    };
  }),
);
result("rps", appRun.rps);
result("p50_ms", percentile(appRun.latenciesMs, 50));
result("p99_ms", percentile(appRun.latenciesMs, 99));
result("baseline_rps", bareRun.rps);
result("rps_vs_baseline", appRun.rps / bareRun.rps);
result("errors", appRun.errors);
process.exit(0);
