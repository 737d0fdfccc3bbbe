import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/*
 * The import rules of ARCHITECTURE.md are Biome's noRestrictedImports, per folder (biome.json's overrides), and CI
 * runs the linter. These cases lint one-line files laid out as the repository is, with the repository's own
 * configuration, so a rule that stops applying (a pattern or a folder mistyped) fails here.
 */
const cases: { file: string; imports: string; refused: boolean }[] = [
  { file: "components/x.tsx", imports: "@/db/schema", refused: true },
  { file: "components/x.tsx", imports: "drizzle-orm", refused: true },
  { file: "components/x.tsx", imports: "@/lib/chat/conversations", refused: false },
  { file: "app/(app)/x/page.tsx", imports: "@/db/client", refused: true },
  { file: "app/api/x/route.ts", imports: "@/lib/mcp/use-cases/execute-mcp-tool", refused: true },
  { file: "app/api/x/route.ts", imports: "@/lib/tools/catalog", refused: false },
  { file: "lib/auth/x.ts", imports: "@/app/(app)/agents/actions", refused: true },
  { file: "lib/usage/x.ts", imports: "@/components/ui/button", refused: true },
  { file: "lib/capabilities/x.ts", imports: "@/lib/tools/catalog", refused: true },
  { file: "lib/capabilities/x.ts", imports: "@/lib/tools/types", refused: false },
  { file: "lib/capabilities/x.ts", imports: "@/lib/tools/builtin", refused: false },
  { file: "lib/mcp/x.ts", imports: "@/lib/tools/catalog", refused: true },
  { file: "lib/mcp/x.ts", imports: "@/lib/capabilities/store", refused: true },
  { file: "lib/mcp/x.ts", imports: "@/lib/chat/agents", refused: true },
  { file: "lib/tools/x.ts", imports: "@/lib/gateway/gateway-endpoint", refused: true },
  { file: "lib/tools/x.ts", imports: "@/lib/gateway/sessions/list-changes", refused: false },
  { file: "lib/tools/x.ts", imports: "@/lib/capabilities/executor", refused: false },
  { file: "lib/gateway/x.ts", imports: "@/db/schema", refused: true },
  { file: "lib/gateway/x.ts", imports: "@/lib/capabilities/executor", refused: true },
  { file: "lib/gateway/sessions/x.ts", imports: "@/db/schema", refused: false },
  { file: "lib/chat/x.ts", imports: "@/lib/mcp/use-cases/execute-mcp-tool", refused: true },
  { file: "lib/agents/x.ts", imports: "@/lib/chat/agents", refused: true },
  { file: "lib/agents/x.ts", imports: "@/db/schema", refused: false },
  { file: "lib/mcp/x.ts", imports: "@/lib/agents/agent-rows", refused: false },
];

const Report = z.object({
  diagnostics: z.array(z.object({ category: z.string(), location: z.object({ path: z.string() }) })),
});

let workdir: string;
let refusedFiles: Set<string>;

beforeAll(() => {
  workdir = mkdtempSync(path.join(tmpdir(), "import-rules-"));
  const config = JSON.parse(readFileSync("biome.json", "utf8"));
  delete config.$schema;
  writeFileSync(path.join(workdir, "biome.json"), JSON.stringify({ ...config, vcs: { enabled: false } }));
  for (const [i, { file, imports }] of cases.entries()) {
    const name = path.join(workdir, path.dirname(file), `case${i}${path.extname(file)}`);
    mkdirSync(path.dirname(name), { recursive: true });
    writeFileSync(name, `import { x } from "${imports}";\n\nexport const y = x;\n`);
  }
  const biome = path.resolve("node_modules/.bin/biome");
  let output: string;
  try {
    output = execFileSync(biome, ["lint", "--only=style/noRestrictedImports", "--reporter=json", "."], {
      cwd: workdir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    // Biome exits non-zero when it finds anything; its report is still on stdout.
    output = String((error as { stdout?: unknown }).stdout ?? "");
  }
  const report = Report.parse(JSON.parse(output));
  refusedFiles = new Set(
    report.diagnostics
      .filter((diagnostic) => diagnostic.category === "lint/style/noRestrictedImports")
      .map((diagnostic) => diagnostic.location.path),
  );
}, 60_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

describe("import rules", () => {
  it.each(cases.map((c, i) => ({ ...c, i })))(
    "$file importing $imports: refused $refused",
    ({ file, refused, i }) => {
      const linted = path.join(path.dirname(file), `case${i}${path.extname(file)}`);
      expect(refusedFiles.has(linted)).toBe(refused);
    },
  );
});
