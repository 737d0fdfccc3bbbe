import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "bench", "components", "db", "lib", "scripts", "tests", ".ci"];
const SOURCE_FILE = /\.(ts|tsx|mjs|js|sql|json|yml)$/;

function filesUnder(dir: string): string[] {
  const full = path.join(root, dir);
  return readdirSync(full).flatMap((entry) => {
    if (entry === "node_modules") return [];
    const relative = path.posix.join(dir, entry);
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(relative) : [relative];
  });
}

const files = [
  ...SOURCE_DIRS.flatMap(filesUnder),
  ...readdirSync(root).filter((entry) => statSync(path.join(root, entry)).isFile()),
];
// Names of other projects the document compares with or configures: not ours to declare.
const OTHER_PROJECTS = ["mcpAuthRouter", "noRestrictedImports"];
const sources = files.filter((file) => SOURCE_FILE.test(file) && !file.startsWith("tests/"));
const code = sources.map((file) => readFileSync(path.join(root, file), "utf8")).join("\n");
// What our code imports from packages (the SDKs' functions the document says we use).
const fromPackages = new Set(
  [...code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(?!@\/|\.)[^"]+"/g)].flatMap((match) =>
    (match[1] as string).split(",").map(
      (item) =>
        item
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]
          ?.trim() ?? "",
    ),
  ),
);
const doc = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
// Every `quoted` span of the document, split where it lists several (`a.ts`, `b.ts` or `a` / `b`).
const spans = [...doc.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);

/** A span that names a file: a path with a folder, or a file name with a source extension. */
const namesFile = (span: string) =>
  /^[\w.@[\]()/-]+\.(ts|tsx|mjs|sql|yml)$/.test(span) ||
  /^(app|lib|components|db|bench|scripts|tests)\/[\w.@[\]()/-]*$/.test(span);

/** A span that names a function, class or type of ours: a camelCase or PascalCase identifier, maybe called. */
const namesCode = (span: string) =>
  /^[a-zA-Z_][\w]*(\.[a-zA-Z_]\w*)*(\(.*\))?$/.test(span) && /[a-z][A-Z]/.test(span);

describe("ARCHITECTURE.md, checked against the code", () => {
  it("names only files that exist", () => {
    const missing = spans.filter(namesFile).filter((span) => {
      // A folder, a module named without its extension, a path, or a file name found anywhere in the tree.
      if (span.endsWith("/")) return !files.some((file) => file.startsWith(span));
      if (span.includes("/"))
        return !files.some(
          (file) =>
            file === span ||
            file.startsWith(`${span}/`) ||
            file.replace(/\.[a-z]+$/, "") === span ||
            file.endsWith(`/${span}`),
        );
      return !files.some((file) => path.posix.basename(file) === span);
    });
    expect([...new Set(missing)]).toEqual([]);
  });

  it("names only functions, classes and types the code declares", () => {
    const missing = spans.filter(namesCode).filter((span) => {
      const name = span
        .replace(/\(.*\)$/, "")
        .split(".")
        .pop() as string;
      if (OTHER_PROJECTS.includes(name) || fromPackages.has(name)) return false;
      // Declared as a function, variable, class or type, or as a method (with its body) or a property or field.
      const declared = new RegExp(
        `(function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b|^\\s*(async\\s+|static\\s+|private\\s+|readonly\\s+|get\\s+)*${name}\\s*\\([^)]*\\)?\\s*(:\\s*[^;{]+)?\\{\\s*$|^\\s*(readonly\\s+)?${name}\\??\\s*:`,
        "m",
      );
      return !declared.test(code);
    });
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe("the product's own docs", () => {
  it("stand alone: none sends the reader to a file outside the repository", () => {
    const outside = ["README.md", "ARCHITECTURE.md", "SECURITY.md"].filter((file) =>
      /\.\.\/[\w-]+\//.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(outside).toEqual([]);
  });
});
