import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { type KnowledgeNode, knowledgeNodes } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { syncSearchIndex } from "@/lib/search/search-backends";
import { isUuid, parseInput } from "@/lib/validation";

export const nodeInputSchema = z.object({
  name: z
    .string({ error: "Enter the node's name." })
    .trim()
    .min(1, { error: "Enter the node's name." })
    .max(200, { error: "Use at most 200 characters for the name." }),
  content: z
    .string({ error: "Enter the node's knowledge." })
    .min(1, { error: "Enter the node's knowledge." })
    .max(200_000, { error: "Keep the knowledge under 200,000 characters." }),
  metadata: z.record(z.string(), z.unknown(), { error: "Metadata must be a JSON object." }).default({}),
});

export type KnowledgeNodeView = Pick<KnowledgeNode, "id" | "name" | "content" | "metadata"> & {
  updatedAt: string;
};

const toView = (row: KnowledgeNode): KnowledgeNodeView => ({
  id: row.id,
  name: row.name,
  content: row.content,
  metadata: row.metadata,
  updatedAt: row.updatedAt.toISOString(),
});

export async function listKnowledgeNodes(db: Database, ctx: RequestContext): Promise<KnowledgeNodeView[]> {
  const rows = await db
    .select()
    .from(knowledgeNodes)
    .where(eq(knowledgeNodes.organizationId, ctx.orgId))
    .orderBy(asc(knowledgeNodes.name));
  return rows.map(toView);
}

/** Every node of one organization, or of all of them, to rebuild the search index from. */
export function listNodesToReindex(db: Database, orgId?: string): Promise<KnowledgeNode[]> {
  return orgId
    ? db.select().from(knowledgeNodes).where(eq(knowledgeNodes.organizationId, orgId))
    : db.select().from(knowledgeNodes);
}

/** Nodes of the organization by exact name. */
export async function findKnowledgeNodesByName(
  db: Database,
  orgId: string,
  names: string[],
): Promise<KnowledgeNode[]> {
  if (names.length === 0) return [];
  return db
    .select()
    .from(knowledgeNodes)
    .where(and(eq(knowledgeNodes.organizationId, orgId), inArray(knowledgeNodes.name, names)));
}

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let i = 0; i < 4 && current; i++) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Runs a write of a node, turning a clash on the unique name into a 409 that names it. */
async function writeNode(
  name: string,
  write: () => Promise<KnowledgeNode | undefined>,
): Promise<KnowledgeNodeView> {
  let row: KnowledgeNode | undefined;
  try {
    row = await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const message = `A node named "${name}" already exists.`;
    throw new ConflictError(message, { name: [message] });
  }
  if (!row) throw new NotFoundError("That knowledge node");
  await syncSearchIndex({ upsert: row });
  return toView(row);
}

/** A node as an audit entry shows it: long content cut, so the log stays readable. */
const auditNode = (node: KnowledgeNodeView) => ({
  name: node.name,
  metadata: node.metadata,
  content: node.content.length > 500 ? `${node.content.slice(0, 500)}…` : node.content,
});

export async function createKnowledgeNode(
  db: Database,
  ctx: RequestContext,
  input: unknown,
): Promise<KnowledgeNodeView> {
  requireAdmin(ctx);
  const values = parseInput(nodeInputSchema, input);
  const node = await writeNode(values.name, async () => {
    const [row] = await db
      .insert(knowledgeNodes)
      .values({ ...values, organizationId: ctx.orgId })
      .returning();
    return row;
  });
  await recordAudit(db, ctx, { action: "knowledge.create", ...auditTarget(node), after: auditNode(node) });
  return node;
}

const auditTarget = (node: KnowledgeNodeView) => ({
  targetType: "knowledge",
  targetId: node.id,
  targetName: node.name,
});

export async function updateKnowledgeNode(db: Database, ctx: RequestContext, id: string, input: unknown) {
  requireAdmin(ctx);
  const values = parseInput(nodeInputSchema, input);
  if (!isUuid(id)) throw new NotFoundError("That knowledge node");
  const node = await writeNode(values.name, async () => {
    const [row] = await db
      .update(knowledgeNodes)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(knowledgeNodes.id, id), eq(knowledgeNodes.organizationId, ctx.orgId)))
      .returning();
    return row;
  });
  await recordAudit(db, ctx, { action: "knowledge.update", ...auditTarget(node), after: auditNode(node) });
  return node;
}

export async function deleteKnowledgeNode(db: Database, ctx: RequestContext, id: string) {
  requireAdmin(ctx);
  if (!isUuid(id)) throw new NotFoundError("That knowledge node");
  const deleted = await db
    .delete(knowledgeNodes)
    .where(and(eq(knowledgeNodes.id, id), eq(knowledgeNodes.organizationId, ctx.orgId)))
    .returning({ id: knowledgeNodes.id, name: knowledgeNodes.name });
  const [removed] = deleted;
  if (!removed) throw new NotFoundError("That knowledge node");
  await recordAudit(db, ctx, {
    action: "knowledge.delete",
    targetType: "knowledge",
    targetId: removed.id,
    targetName: removed.name,
    before: { name: removed.name },
  });
  await syncSearchIndex({ remove: id });
}
