import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Runs the official MCP conformance suite against the gateway of a freshly started app (embedded database):
 * the scenarios that do not depend on particular test tools must pass, and the whole suite may fail only
 * where conformance/gateway-baseline.yml says so, with the reason.
 */
const REQUIRED = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "logging-set-level",
  "dns-rebinding-protection",
];
const port = Number(process.env.CONFORMANCE_PORT ?? 3300);
const suite = path.resolve("..", "shared", "tools", "mcp-conformance");
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-conformance-"));
// The suite runs against the "Everything" reference server, a demo entry of the catalog.
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  PORT: String(port),
  LOG_LEVEL: "warn",
  MCP_DEMO_SERVERS: "true",
};

function cli(...args: string[]): unknown {
  const result = spawnSync("npx", ["tsx", "lib/cli/main.ts", ...args, "--json"], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cli ${args[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

async function waitForHealth(app: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (app.exitCode !== null) throw new Error("the app exited before it was ready");
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the app did not become ready");
}

async function main() {
  if (!existsSync(suite)) throw new Error(`The conformance runner is missing: ${suite}`);
  cli("org:create", "conformance");
  const { key } = cli("apikey:create", "--org", "conformance", "--name", "conformance") as { key: string };
  cli("integration:add", "--org", "conformance", "--name", "Everything", "--catalog", "everything");
  const taken = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`Port ${port} is already in use; set CONFORMANCE_PORT to a free one.`);
  // Its own process group, so stopping it also stops the server it runs.
  const app = spawn("npx", ["tsx", "scripts/start.ts"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-(app.pid ?? 0), "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  let failed = 0;
  try {
    await waitForHealth(app);
    const url = `http://localhost:${port}/api/mcp`;
    const run = (args: string[]) =>
      spawnSync(suite, ["server", url, ...args], {
        stdio: "inherit",
        env: { ...process.env, MCP_CONFORMANCE_HEADER: `Authorization: Bearer ${key}` },
      }).status;
    for (const scenario of REQUIRED) {
      console.log(`\n=== conformance: ${scenario}`);
      if (run(["--scenario", scenario]) !== 0) failed++;
    }
    console.log("\n=== conformance: every server scenario, against the baseline");
    if (run(["--expected-failures", path.resolve("conformance", "gateway-baseline.yml")]) !== 0) failed++;
  } finally {
    stop();
  }
  console.log(failed === 0 ? "\nconformance: passed" : `\nconformance: ${failed} run(s) failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
