import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFixture } from "../tests/fixtures/mcp/start-fixture";

/**
 * Runs the official MCP conformance suite against the gateway of a freshly started app (embedded database):
 * the scenarios that do not depend on particular test tools must pass, and the whole suite may fail only
 * where conformance/gateway-baseline.yml says so, with the reason. Then every server scenario against a fixture
 * server made for the suite (tests/fixtures/mcp/conformance-server.ts) directly and through its pass-through
 * endpoint (/api/mcp/integrations/fixture): each that passes directly must pass through Switchboard too, unless
 * conformance/passthrough-baseline.yml says why not.
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
  // The fixture server listens on loopback.
  MCP_ALLOW_PRIVATE_NETWORKS: "true",
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

/** The scenarios of one whole run of the suite against url, and whether each passed. */
function scenarioOutcomes(url: string, header?: string): Map<string, boolean> {
  const result = spawnSync(suite, ["server", url], {
    encoding: "utf8",
    env: { ...process.env, ...(header ? { MCP_CONFORMANCE_HEADER: header } : {}) },
  });
  const outcomes = new Map<string, boolean>();
  for (const line of result.stdout.split("\n")) {
    const match = /^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/.exec(line);
    if (match) outcomes.set(match[1] as string, match[3] === "0");
  }
  return outcomes;
}

/** The scenarios conformance/passthrough-baseline.yml excuses (its `server:` list). */
function passThroughBaseline(): Set<string> {
  const text = readFileSync(path.resolve("conformance", "passthrough-baseline.yml"), "utf8");
  return new Set([...text.matchAll(/^\s*-\s*([\w-]+)/gm)].map((match) => match[1] as string));
}

const passedCount = (outcomes: Map<string, boolean>) => [...outcomes.values()].filter(Boolean).length;

/**
 * Runs the suite against the fixture server directly, then against the app's pass-through endpoint for it, and
 * compares: a scenario that passes directly and fails through the app fails this check, unless the baseline
 * excuses it; one the baseline excuses that now passes must leave the baseline.
 */
function passThroughKeepsConformance(directUrl: string, passThroughUrl: string, key: string): boolean {
  const direct = scenarioOutcomes(directUrl);
  const through = scenarioOutcomes(passThroughUrl, `Authorization: Bearer ${key}`);
  console.log(
    `Directly: ${passedCount(direct)}/${direct.size} scenarios pass; through ${new URL(passThroughUrl).pathname}: ${passedCount(through)}/${through.size}.`,
  );
  const excused = passThroughBaseline();
  const lost = [...direct].filter(([name, passed]) => passed && !through.get(name)).map(([name]) => name);
  for (const name of lost) console.log(`  ${excused.has(name) ? "~ (baseline)" : "✗"} ${name}`);
  const gained = [...through].filter(([name, passed]) => passed && !direct.get(name)).map(([name]) => name);
  if (gained.length) console.log(`Passing only through the app: ${gained.join(", ")}.`);
  const unexcused = lost.filter((name) => !excused.has(name));
  const stale = [...excused].filter((name) => !lost.includes(name));
  if (stale.length)
    console.log(`The baseline excuses scenarios that no longer fail through: ${stale.join(", ")}.`);
  return direct.size > 0 && unexcused.length === 0 && stale.length === 0;
}

async function main() {
  if (!existsSync(suite)) throw new Error(`The conformance runner is missing: ${suite}`);
  cli("org:create", "conformance");
  const { key } = cli("apikey:create", "--org", "conformance", "--name", "conformance") as { key: string };
  cli("integration:add", "--org", "conformance", "--name", "Everything", "--catalog", "everything");
  const fixture = await startFixture("conformance");
  process.on("exit", () => void fixture.stop());
  cli("integration:add", "--org", "conformance", "--name", "Fixture", "--url", fixture.url);
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
    console.log("\n=== conformance: the fixture server directly, and through its pass-through endpoint");
    const through = `http://localhost:${port}/api/mcp/integrations/fixture`;
    if (!passThroughKeepsConformance(fixture.url, through, key)) failed++;
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
