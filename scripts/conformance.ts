import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { startFixture } from "../tests/fixtures/mcp/start-fixture";

/**
 * Runs the official MCP conformance suite (its pre-release that tests 2026-07-28) against a freshly started app
 * (embedded database), once per protocol revision the app speaks, each run at its revision's wire (2025-11-25:
 * sessions; 2026-07-28: stateless):
 * - the gateway: the scenarios that do not depend on the suite's own test tools must pass, and every scenario the
 *   revision requires may fail only where conformance/<revision>/gateway-baseline.yml says so, with the reason;
 * - a fixture server made for the suite (tests/fixtures/mcp/conformance-server.ts, both revisions) directly and
 *   through its pass-through endpoint (/api/mcp/integrations/fixture): each scenario that passes directly must
 *   pass through Switchboard too, unless conformance/<revision>/passthrough-baseline.yml says why not;
 * - at 2026-07-28, the same fixture speaking only that revision, directly: every scenario the revision requires
 *   passes (Switchboard's client reaches such a server once it speaks 2026-07-28 itself).
 */
const SUITE_VERSION = "0.2.0-alpha.12";
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];
const REQUIRED: Record<Revision, string[]> = {
  "2025-11-25": [
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "logging-set-level",
    "dns-rebinding-protection",
  ],
  "2026-07-28": ["tools-list", "resources-list", "prompts-list", "dns-rebinding-protection", "caching"],
};
const port = Number(process.env.CONFORMANCE_PORT ?? 3300);
const runner = path.resolve("..", "shared", "tools", "mcp-conformance");
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
  // The suite's runs make more requests a minute, with one key, than the default limit lets through.
  API_RATE_LIMIT_PER_MINUTE: "0",
};
// This pre-release in a folder of its own, so runs of another release (the client scenarios) keep theirs.
const suiteEnv = {
  ...process.env,
  MCP_CONFORMANCE_VERSION: SUITE_VERSION,
  MCP_CONFORMANCE_HOME: `${process.env.MCP_CONFORMANCE_HOME ?? path.join(homedir(), ".cache", "mcp-conformance")}-${SUITE_VERSION}`,
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

const withHeader = (header?: string) => ({
  ...suiteEnv,
  ...(header ? { MCP_CONFORMANCE_HEADER: header } : {}),
});

/** One run of the suite, its output shown; answers whether it passed. */
function run(url: string, args: string[], header?: string): boolean {
  return (
    spawnSync(runner, ["server", url, ...args], { stdio: "inherit", env: withHeader(header) }).status === 0
  );
}

/** The scenarios the revision requires (and those it runs unscored), run against url, and whether each passed. */
function scenarioOutcomes(url: string, revision: Revision, header?: string): Map<string, boolean> {
  const result = spawnSync(runner, ["server", url, "--requirements", revision], {
    encoding: "utf8",
    env: withHeader(header),
  });
  const outcomes = new Map<string, boolean>();
  for (const line of result.stdout.split("\n")) {
    const match = /^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/.exec(line);
    if (match) outcomes.set(match[1] as string, match[3] === "0");
  }
  return outcomes;
}

const baselineOf = (revision: Revision, endpoint: "gateway" | "passthrough") =>
  path.resolve("conformance", revision, `${endpoint}-baseline.yml`);

/** The scenarios a baseline excuses (its `server:` list). */
function excusedBy(file: string): Set<string> {
  const text = readFileSync(file, "utf8");
  return new Set([...text.matchAll(/^\s*-\s*([\w-]+)/gm)].map((match) => match[1] as string));
}

const passedCount = (outcomes: Map<string, boolean>) => [...outcomes.values()].filter(Boolean).length;

/**
 * Runs the suite against the fixture server directly, then against the app's pass-through endpoint for it, and
 * compares: a scenario that passes directly and fails through the app fails this check, unless the baseline
 * excuses it; one the baseline excuses that now passes must leave the baseline.
 */
function passThroughKeepsConformance(
  revision: Revision,
  directUrl: string,
  passThroughUrl: string,
  key: string,
): boolean {
  const direct = scenarioOutcomes(directUrl, revision);
  const through = scenarioOutcomes(passThroughUrl, revision, `Authorization: Bearer ${key}`);
  console.log(
    `${revision}: directly ${passedCount(direct)}/${direct.size} scenarios pass; through ${new URL(passThroughUrl).pathname}: ${passedCount(through)}/${through.size}.`,
  );
  const excused = excusedBy(baselineOf(revision, "passthrough"));
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

/** Every scenario the revision requires passes against url (scenarios it runs unscored may fail). */
function allRequiredPass(url: string, revision: Revision): boolean {
  const result = spawnSync(runner, ["server", url, "--requirements", revision], {
    encoding: "utf8",
    env: suiteEnv,
  });
  const required = new Set(
    [
      ...(readFileSync(requirementsFile(revision), "utf8")
        .split(/^not_scored:/m)[0]
        ?.matchAll(/^\s+-\s+([\w/-]+)$/gm) ?? []),
    ].map((match) => match[1] as string),
  );
  const failing = [...result.stdout.matchAll(/^✗ ([\w-]+):/gm)]
    .map((match) => match[1] as string)
    .filter((name) => required.has(name));
  console.log(
    failing.length ? `  ✗ failing: ${failing.join(", ")}` : `  every scenario ${revision} requires passes`,
  );
  return failing.length === 0 && required.size > 0;
}

/** The suite's own list of what a revision requires. */
function requirementsFile(revision: Revision): string {
  return path.join(
    suiteEnv.MCP_CONFORMANCE_HOME,
    "node_modules",
    "@modelcontextprotocol",
    "conformance",
    "requirements",
    `${revision}.yaml`,
  );
}

async function main() {
  if (!existsSync(runner)) throw new Error(`The conformance runner is missing: ${runner}`);
  cli("org:create", "conformance");
  const { key } = cli("apikey:create", "--org", "conformance", "--name", "conformance") as { key: string };
  cli("integration:add", "--org", "conformance", "--name", "Everything", "--catalog", "everything");
  const fixture = await startFixture("conformance");
  const modernOnly = await startFixture("conformance-modern");
  process.on("exit", () => {
    void fixture.stop();
    void modernOnly.stop();
  });
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
  const failed: string[] = [];
  try {
    await waitForHealth(app);
    const url = `http://localhost:${port}/api/mcp`;
    const header = `Authorization: Bearer ${key}`;
    for (const revision of REVISIONS) {
      for (const scenario of REQUIRED[revision]) {
        console.log(`\n=== conformance ${revision}: ${scenario}`);
        if (!run(url, ["--scenario", scenario, "--spec-version", revision], header))
          failed.push(`${revision} ${scenario}`);
      }
      console.log(
        `\n=== conformance ${revision}: every scenario it requires, against the gateway's baseline`,
      );
      if (
        !run(
          url,
          ["--requirements", revision, "--expected-failures", baselineOf(revision, "gateway")],
          header,
        )
      )
        failed.push(`${revision} gateway`);
      console.log(
        `\n=== conformance ${revision}: the fixture server directly, and through its pass-through endpoint`,
      );
      const through = `http://localhost:${port}/api/mcp/integrations/fixture`;
      if (!passThroughKeepsConformance(revision, fixture.url, through, key))
        failed.push(`${revision} pass-through`);
    }
    console.log("\n=== conformance 2026-07-28: the fixture server speaking only 2026-07-28, directly");
    if (!allRequiredPass(modernOnly.url, "2026-07-28")) failed.push("2026-07-28 fixture");
  } finally {
    stop();
  }
  console.log(failed.length === 0 ? "\nconformance: passed" : `\nconformance: failed: ${failed.join("; ")}`);
  process.exit(failed.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
