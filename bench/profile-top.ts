import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The top entries of a V8 CPU profile (what BENCH_CPU_PROF writes): `npx tsx bench/profile-top.ts <file> [count]
 * [filter]` prints the functions with the most self time, then the most total time (time in them and what they
 * call, each function counted once per stack), as shares of the samples where it was busy. A filter keeps only stacks
 * through a function whose name or file contains it.
 */
const Profile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
});

const [file, countArg, filter] = process.argv.slice(2);
if (!file) {
  console.error("Usage: npx tsx bench/profile-top.ts <file.cpuprofile> [count] [filter]");
  process.exit(2);
}
const count = Number(countArg ?? 30);
const profile = Profile.parse(JSON.parse(readFileSync(file, "utf8")));

const parents = new Map<number, number>();
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

/** A frame's name as the tables show it: function, then file (its last two parts) and line. */
function label(id: number): string {
  const frame = byId.get(id)?.callFrame;
  if (!frame) return "?";
  const file = frame.url.split("/").slice(-2).join("/");
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

function stackOf(id: number): number[] {
  const stack: number[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) stack.push(at);
  return stack;
}

const self = new Map<string, number>();
const total = new Map<string, number>();
let counted = 0;
for (const sample of profile.samples) {
  const stack = stackOf(sample);
  const labels = stack.map(label);
  // Time the process waited is no one's.
  if (labels[0]?.startsWith("(idle)") || labels[0]?.startsWith("(program)")) continue;
  if (filter && !labels.some((name) => name.includes(filter))) continue;
  counted++;
  const top = labels[0] ?? "?";
  self.set(top, (self.get(top) ?? 0) + 1);
  for (const name of new Set(labels)) total.set(name, (total.get(name) ?? 0) + 1);
}

const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title} (${counted} samples${filter ? ` through "${filter}"` : ""})`);
  const rows = [...entries].filter(([name]) => !name.startsWith("(root)")).sort((a, b) => b[1] - a[1]);
  for (const [name, n] of rows.slice(0, count))
    console.log(`${((n / counted) * 100).toFixed(1).padStart(5)}%  ${name}`);
};
print("Self time", self);
print("Total time", total);
