import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Capability, capabilities } from "@/db/schema";
import { forgetCapabilityInAgents } from "@/lib/agents/agent-rows";
import { auditPick, changedFields, recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { listIntegrationsForToolName } from "@/lib/mcp/repository";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { holderOfToolName } from "@/lib/tools/tool-precedence";
import { isUuid, parseInput } from "@/lib/validation";
import { type CapabilityInput, capabilityInputSchema, capabilityToolNameSql } from "./names";
import { capabilityToolName } from "./tool-name";

/** The organization's capabilities, by name. Read fresh on every call: a saved change shows at once (AC7). */
export function listCapabilities(db: Database, orgId: string): Promise<Capability[]> {
  return db
    .select()
    .from(capabilities)
    .where(eq(capabilities.organizationId, orgId))
    .orderBy(asc(capabilities.namespace), asc(capabilities.action));
}

/** The ids among `ids` (UUIDs) that name capabilities of the organization. */
export function listOwnCapabilityIds(db: Database, orgId: string, ids: string[]): Promise<{ id: string }[]> {
  return db
    .select({ id: capabilities.id })
    .from(capabilities)
    .where(and(inArray(capabilities.id, ids), eq(capabilities.organizationId, orgId)));
}

/** A capability as the tool catalog keeps it in memory: what listing and running it need, not its counters. */
export type CatalogCapability = Pick<
  Capability,
  "id" | "namespace" | "action" | "description" | "parametersSchema" | "outputSchema" | "annotations" | "code"
>;

/** The organization's capabilities as the catalog keeps them, by name. */
export function listCatalogCapabilities(db: Database, orgId: string): Promise<CatalogCapability[]> {
  return db
    .select({
      id: capabilities.id,
      namespace: capabilities.namespace,
      action: capabilities.action,
      description: capabilities.description,
      parametersSchema: capabilities.parametersSchema,
      outputSchema: capabilities.outputSchema,
      annotations: capabilities.annotations,
      code: capabilities.code,
    })
    .from(capabilities)
    .where(eq(capabilities.organizationId, orgId))
    .orderBy(asc(capabilities.namespace), asc(capabilities.action));
}

/** The organization's capability listed under `toolName`, if any: looked up, not parsed from the name. */
export function listCapabilitiesForToolName(
  db: Database,
  orgId: string,
  toolName: string,
): Promise<Capability[]> {
  return db
    .select()
    .from(capabilities)
    .where(
      and(
        eq(capabilities.organizationId, orgId),
        eq(capabilityToolNameSql(capabilities.namespace, capabilities.action), toolName),
      ),
    );
}

export async function getCapability(db: Database, ctx: RequestContext, id: string): Promise<Capability> {
  if (!isUuid(id)) throw new NotFoundError("That capability");
  const [row] = await db
    .select()
    .from(capabilities)
    .where(and(eq(capabilities.id, id), eq(capabilities.organizationId, ctx.orgId)));
  if (!row) throw new NotFoundError("That capability");
  return row;
}

/** A capability's name must not be another tool's: built-ins, integration tools, other capabilities. */
async function refuseNameClash(db: Database, ctx: RequestContext, input: CapabilityInput, exceptId?: string) {
  const name = capabilityToolName(input.namespace, input.action);
  const holder = holderOfToolName(name, {
    capabilities: await listCapabilitiesForToolName(db, ctx.orgId, name),
    integrations: await listIntegrationsForToolName(db, ctx.orgId, name),
    ...(exceptId ? { exceptCapabilityId: exceptId } : {}),
  });
  if (!holder) return;
  const message =
    holder.kind === "capability"
      ? `A capability named ${name} already exists.`
      : holder.kind === "builtin"
        ? `${name} is the name of a built-in tool.`
        : `${name} is already a tool of the integration "${holder.integrationName}".`;
  throw new ConflictError(message, { action: [message] });
}

export async function createCapability(
  db: Database,
  ctx: RequestContext,
  input: unknown,
): Promise<Capability> {
  requireAdmin(ctx);
  const values = parseInput(capabilityInputSchema, input);
  await refuseNameClash(db, ctx, values);
  const [row] = await db
    .insert(capabilities)
    .values({ ...values, organizationId: ctx.orgId, createdBy: ctx.userId ?? null })
    .onConflictDoNothing()
    .returning();
  if (!row)
    throw new ConflictError(
      `A capability named ${capabilityToolName(values.namespace, values.action)} already exists.`,
    );
  await publishCatalogChange(db, ctx.orgId);
  await recordAudit(db, ctx, { action: "capability.create", ...auditTarget(row), after: auditFields(row) });
  return row;
}

export async function updateCapability(
  db: Database,
  ctx: RequestContext,
  id: string,
  input: unknown,
): Promise<Capability> {
  requireAdmin(ctx);
  const current = await getCapability(db, ctx, id);
  const values = parseInput(capabilityInputSchema, input);
  await refuseNameClash(db, ctx, values, current.id);
  const [row] = await db
    .update(capabilities)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(capabilities.id, current.id), eq(capabilities.organizationId, ctx.orgId)))
    .returning();
  if (!row) throw new NotFoundError("That capability");
  await publishCatalogChange(db, ctx.orgId);
  await recordAudit(db, ctx, {
    action: "capability.update",
    ...auditTarget(row),
    ...changedFields(auditFields(current), auditFields(row)),
  });
  return row;
}

const auditTarget = (row: Capability) => ({
  targetType: "capability",
  targetId: row.id,
  targetName: capabilityToolName(row.namespace, row.action),
});
const auditFields = (row: Capability) =>
  auditPick(row, [
    "namespace",
    "action",
    "description",
    "parametersSchema",
    "outputSchema",
    "annotations",
    "code",
  ]);

export async function deleteCapability(db: Database, ctx: RequestContext, id: string): Promise<void> {
  requireAdmin(ctx);
  const current = await getCapability(db, ctx, id);
  await db.transaction(async (tx) => {
    await tx
      .delete(capabilities)
      .where(and(eq(capabilities.id, current.id), eq(capabilities.organizationId, ctx.orgId)));
    await forgetCapabilityInAgents(tx, ctx.orgId, current.id);
    await publishCatalogChange(db, ctx.orgId, { executor: tx });
  });
  await recordAudit(db, ctx, {
    action: "capability.delete",
    ...auditTarget(current),
    before: auditFields(current),
  });
}

/** Counts one call (AC5) in a single statement, so concurrent calls never lose an update. */
export async function recordCapabilityCall(
  db: Database,
  id: string,
  outcome: { ok: boolean; latencyMs: number },
) {
  await db
    .update(capabilities)
    .set({
      usageCount: sql`${capabilities.usageCount} + 1`,
      successCount: sql`${capabilities.successCount} + ${outcome.ok ? 1 : 0}`,
      totalLatencyMs: sql`${capabilities.totalLatencyMs} + ${outcome.latencyMs}`,
      lastUsedAt: sql`now()`,
    })
    .where(eq(capabilities.id, id));
}
