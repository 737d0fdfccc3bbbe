import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import packageJson from "@/package.json" with { type: "json" };

/*
 * The image installs the dependencies alone (`npm prune --omit=dev`), and its migration job and CLI run the sources
 * with tsx: a package the app's own code imports must be a dependency, not a development one.
 */
const SOURCE_ROOTS = ["app", "components", "db", "lib", "scripts"];
// Test and benchmark tooling that lives beside the sources and is left out of the image (.dockerignore).
const TOOLING = new Set(["scripts/test.ts", "scripts/conformance.ts"]);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "migrations" ? [] : sourceFiles(file);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !TOOLING.has(file) ? [file] : [];
  });
}

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("@/") || specifier.startsWith("node:"))
    return undefined;
  if (builtinModules.includes(specifier.split("/")[0] as string)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

describe("production dependencies", () => {
  it("holds every package the app's own code imports", () => {
    const dependencies = new Set(Object.keys(packageJson.dependencies));
    const missing = new Set<string>();
    for (const file of SOURCE_ROOTS.flatMap(sourceFiles)) {
      const text = readFileSync(file, "utf8");
      // Static and dynamic imports, not type-only ones (erased before running).
      for (const match of text.matchAll(
        /^\s*(?:import|export)(?!\s+type\b)[^"'`]*?from\s+["']([^"']+)["']/gm,
      ))
        if (match[1]) {
          const name = packageOf(match[1]);
          if (name && !dependencies.has(name)) missing.add(`${name} (${file})`);
        }
      for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g))
        if (match[1]) {
          const name = packageOf(match[1]);
          if (name && !dependencies.has(name)) missing.add(`${name} (${file})`);
        }
    }
    expect([...missing]).toEqual([]);
  });
});
