import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { knowledgeNodes } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { ValidationError } from "@/lib/errors";
import { syncSearchIndex } from "@/lib/search/search-backends";
import { nodeInputSchema } from "./nodes";

export interface KnowledgeFile {
  name: string;
  text: string;
}

type NodeInput = z.input<typeof nodeInputSchema>;

/** The shape of one node in a JSON file, as the import's messages show it. */
const NODE_SHAPE = '{"name": "…", "content": "…", "metadata": {…}}';

const jsonFileSchema = z.union([
  z.array(z.unknown()),
  z.object({ nodes: z.array(z.unknown()) }).transform((value) => value.nodes),
]);

/** A Markdown file is one node: its first heading (or file name) is the name, the rest the knowledge. */
function fromMarkdown(file: KnowledgeFile): NodeInput {
  const lines = file.text.replace(/\r\n/g, "\n").split("\n");
  const headingIndex = lines.findIndex((line) => /^#\s+\S/.test(line));
  const name =
    headingIndex >= 0
      ? (lines[headingIndex] ?? "").replace(/^#\s+/, "").trim()
      : file.name.replace(/\.(md|markdown)$/i, "");
  const content = (headingIndex >= 0 ? lines.filter((_, i) => i !== headingIndex) : lines).join("\n").trim();
  return { name, content, metadata: { source: file.name } };
}

/** What is wrong with one node of a JSON file, naming the field the import expected. */
function nodeProblem(item: unknown, issue: z.core.$ZodIssue | undefined): string {
  if (!item || typeof item !== "object" || Array.isArray(item))
    return `expected an object like ${NODE_SHAPE}.`;
  const field = typeof issue?.path[0] === "string" ? issue.path[0] : undefined;
  const missing = field !== undefined && !(field in item);
  if (field && missing)
    return `expected the field "${field}" (${issue?.message}) Each node is ${NODE_SHAPE}.`;
  return field ? `the field "${field}": ${issue?.message}` : (issue?.message ?? "invalid");
}

/** Reads nodes from uploaded files: JSON (an array of {name, content, metadata}, or {nodes: [...]}) or Markdown. */
export function parseKnowledgeFiles(files: KnowledgeFile[]): NodeInput[] {
  const nodes: NodeInput[] = [];
  const problems: string[] = [];
  for (const file of files) {
    if (/\.json$/i.test(file.name)) {
      let data: unknown;
      try {
        data = JSON.parse(file.text);
      } catch {
        problems.push(`${file.name} is not valid JSON.`);
        continue;
      }
      const list = jsonFileSchema.safeParse(data);
      if (!list.success) {
        problems.push(`${file.name} must hold an array of nodes, or {"nodes": [...]}.`);
        continue;
      }
      list.data.forEach((item, index) => {
        const node = nodeInputSchema.safeParse(item);
        if (node.success) nodes.push(node.data);
        else problems.push(`${file.name}, node ${index + 1}: ${nodeProblem(item, node.error.issues[0])}`);
      });
    } else if (/\.(md|markdown)$/i.test(file.name)) {
      const node = nodeInputSchema.safeParse(fromMarkdown(file));
      if (node.success) nodes.push(node.data);
      else problems.push(`${file.name}: ${node.error.issues[0]?.message ?? "invalid"}`);
    } else {
      problems.push(`${file.name}: only .json and .md files can be imported.`);
    }
  }
  const seen = new Set<string>();
  for (const node of nodes) {
    if (seen.has(node.name)) problems.push(`The name "${node.name}" appears more than once.`);
    seen.add(node.name);
  }
  if (problems.length > 0) throw new ValidationError(problems.slice(0, 5).join(" "), { files: problems });
  if (nodes.length === 0) throw new ValidationError("The files hold no knowledge nodes.");
  return nodes;
}

/** Imports nodes all or nothing; a node whose name exists is updated. */
export async function importKnowledgeNodes(db: Database, ctx: RequestContext, files: KnowledgeFile[]) {
  requireAdmin(ctx);
  const inputs = parseKnowledgeFiles(files);
  const rows = await db.transaction(async (tx) =>
    tx
      .insert(knowledgeNodes)
      .values(
        inputs.map((input) => ({
          name: input.name,
          content: input.content,
          metadata: input.metadata ?? {},
          organizationId: ctx.orgId,
        })),
      )
      .onConflictDoUpdate({
        target: [knowledgeNodes.organizationId, knowledgeNodes.name],
        set: { content: sql`excluded.content`, metadata: sql`excluded.metadata`, updatedAt: sql`now()` },
      })
      .returning(),
  );
  for (const row of rows) await syncSearchIndex({ upsert: row });
  await recordAudit(db, ctx, {
    action: "knowledge.import",
    targetType: "knowledge",
    after: { imported: rows.length, names: rows.slice(0, 20).map((row) => row.name) },
  });
  return { imported: rows.length };
}
