import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "public",
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "postcss.config.mjs",
];

function newestMtime(entry: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/** True when there is no production build, or a source file changed after it was made. */
export function needsBuild(root = process.cwd()): boolean {
  let built: number;
  try {
    built = statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((entry) => newestMtime(path.join(root, entry)) > built);
}
