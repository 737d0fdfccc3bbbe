import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumPath } from "../tests/e2e/chromium";

/**
 * `npm test`: unit and integration tests on PGlite, the integration tests again on PostgreSQL when DATABASE_URL
 * is set, and the browser tests when Chromium is installed. With CI=true a missing PostgreSQL or Chromium fails
 * the run instead of skipping.
 */
const ci = process.env.CI === "true" || process.env.CI === "1";
const reports = mkdtempSync(path.join(tmpdir(), "switchboard-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failures = 0;

function run(title: string, command: string[], env: Record<string, string | undefined>) {
  console.log(`\n=== ${title}\n`);
  const result = spawnSync("npx", command, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) failures++;
}

function countVitest(file: string) {
  try {
    const report = JSON.parse(readFileSync(file, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    failures++;
  }
}

function countPlaywright(file: string) {
  try {
    const report = JSON.parse(readFileSync(file, "utf8")) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    };
    totals.passed += report.stats.expected + report.stats.flaky;
    totals.failed += report.stats.unexpected;
    totals.skipped += report.stats.skipped;
  } catch {
    failures++;
  }
}

const vitestArgs = (name: string, project?: string) => [
  "vitest",
  "run",
  ...(project ? ["--project", project] : []),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(reports, `${name}.json`)}`,
];

run("Unit and integration tests (PGlite)", vitestArgs("pglite"), { DATABASE_URL: "" });
countVitest(path.join(reports, "pglite.json"));

if (process.env.DATABASE_URL) {
  run("Integration tests (PostgreSQL)", vitestArgs("postgres", "integration"), {});
  countVitest(path.join(reports, "postgres.json"));
} else if (ci) {
  console.error("\nCI requires PostgreSQL: set DATABASE_URL so the integration tests also run on it.");
  failures++;
} else {
  console.log("\nSkipped: the integration tests on PostgreSQL. Set DATABASE_URL=postgres://… to run them.");
}

const chromium = chromiumPath();
if (chromium) {
  const file = path.join(reports, "e2e.json");
  run("Browser tests (Chromium)", ["playwright", "test", "--reporter=list,json"], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  });
  countPlaywright(file);
} else if (ci) {
  console.error(
    "\nCI requires Chromium for the browser tests: install Debian's chromium or set CHROMIUM_PATH.",
  );
  failures++;
} else {
  console.log(
    "\nSkipped: the browser tests (tests/e2e), since no Chromium was found. Install it (apt-get install chromium)" +
      " or set CHROMIUM_PATH to a Chromium binary, then run npm test again.",
  );
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures > 0 || totals.failed > 0 ? 1 : 0);
