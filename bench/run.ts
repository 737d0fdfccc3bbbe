import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** `npm run bench -- <name>` runs bench/<name>/index.ts; without a name it lists the benchmarks. */
const benchDir = import.meta.dirname;
const available = readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(benchDir, entry.name, "index.ts")))
  .map((entry) => entry.name)
  .sort();

const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  if (name) console.error(`Unknown benchmark "${name}".`);
  console.log(`Usage: npm run bench -- <name>\nBenchmarks: ${available.join(", ") || "(none yet)"}`);
  process.exit(name ? 2 : 0);
}
const result = spawnSync("npx", ["tsx", path.join(benchDir, name, "index.ts"), ...args], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
