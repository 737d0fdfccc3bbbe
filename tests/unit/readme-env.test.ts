import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema, parseEnv } from "@/lib/env";

// Read by libraries rather than lib/env.ts, and still the operator's to set.
const READ_ELSEWHERE = ["AUTH_URL"];

function settingsTable(): { names: string[]; defaultColumn: string }[] {
  const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(
    section.indexOf("| variable"),
    section.indexOf("\n\n", section.indexOf("| variable")),
  );
  return table
    .split("\n")
    .slice(2)
    .map((line) => line.split("|").map((cell) => cell.trim()))
    .map(([, first = "", second = ""]) => ({
      names: [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] as string),
      defaultColumn: second,
    }));
}

describe("the README's settings table", () => {
  const rows = settingsTable();
  const documented = rows.flatMap((row) => row.names);
  const read = Object.keys(envSchema.shape);

  it("lists every variable the app reads", () => {
    expect(read.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("lists nothing the app does not read", () => {
    expect(documented.filter((name) => !read.includes(name) && !READ_ELSEWHERE.includes(name))).toEqual([]);
  });

  it("gives each variable the default the app uses", () => {
    const defaults = parseEnv({}) as Record<string, unknown>;
    const wrong = rows.flatMap(({ names, defaultColumn }) =>
      names
        .filter((name) => read.includes(name))
        .filter((name) => {
          const value = defaults[name];
          const none = value === undefined || (Array.isArray(value) && value.length === 0);
          return none
            ? !["unset", "generated"].includes(defaultColumn)
            : defaultColumn !== `\`${String(value)}\``;
        })
        .map(
          (name) => `${name}: README says ${defaultColumn}, the app uses ${JSON.stringify(defaults[name])}`,
        ),
    );
    expect(wrong).toEqual([]);
  });
});
