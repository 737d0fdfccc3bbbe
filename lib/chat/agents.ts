import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Agent, agents, mcpIntegrations } from "@/db/schema";
import { auditPick, changedFields, recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { isUuid, parseInput } from "@/lib/validation";
import { type AgentInput, agentInputSchema } from "./agent-schemas";

const DEFAULT_INSTRUCTIONS =
  "You are the organization's assistant. Use the available tools when they help, say which tool you used, and explain tool errors plainly.";

/** The organization's default agent (all enabled integrations, every built-in tool), created on first use. */
export async function ensureDefaultAgent(db: Database, orgId: string): Promise<Agent> {
  const [existing] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.organizationId, orgId), eq(agents.isDefault, true)));
  if (existing) return existing;
  const [created] = await db
    .insert(agents)
    .values({ organizationId: orgId, name: "Assistant", instructions: DEFAULT_INSTRUCTIONS, isDefault: true })
    .returning();
  if (!created) throw new Error("insert returned no row");
  return created;
}

/** The organization's agents, the default one first. */
export async function listAgents(db: Database, ctx: RequestContext): Promise<Agent[]> {
  await ensureDefaultAgent(db, ctx.orgId);
  return db
    .select()
    .from(agents)
    .where(eq(agents.organizationId, ctx.orgId))
    .orderBy(desc(agents.isDefault), asc(agents.createdAt));
}

export async function getAgent(db: Database, ctx: RequestContext, id: string): Promise<Agent> {
  if (!isUuid(id)) throw new NotFoundError("That agent");
  const [agent] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.organizationId, ctx.orgId)));
  if (!agent) throw new NotFoundError("That agent");
  return agent;
}

/** Parses an agent and checks that every chosen integration is one of the organization's. */
async function validAgentInput(db: Database, ctx: RequestContext, input: unknown): Promise<AgentInput> {
  const parsed = parseInput(agentInputSchema, input);
  const ids = parsed.mcpIntegrationIds ? [...new Set(parsed.mcpIntegrationIds)] : null;
  if (ids && ids.length > 0) {
    const known = ids.every(isUuid)
      ? await db
          .select({ id: mcpIntegrations.id })
          .from(mcpIntegrations)
          .where(and(inArray(mcpIntegrations.id, ids), eq(mcpIntegrations.organizationId, ctx.orgId)))
      : [];
    if (known.length !== ids.length) {
      const message = "Choose integrations of this organization.";
      throw new ValidationError(message, { mcpIntegrationIds: [message] });
    }
  }
  return { ...parsed, mcpIntegrationIds: ids, builtinTools: [...new Set(parsed.builtinTools)] };
}

export async function createAgent(db: Database, ctx: RequestContext, input: unknown): Promise<Agent> {
  requireAdmin(ctx);
  const values = await validAgentInput(db, ctx, input);
  const [created] = await db
    .insert(agents)
    .values({ ...values, organizationId: ctx.orgId })
    .returning();
  if (!created) throw new Error("insert returned no row");
  await recordAudit(db, ctx, {
    action: "agent.create",
    ...auditTarget(created),
    after: auditFields(created),
  });
  return created;
}

const auditTarget = (agent: Agent) => ({ targetType: "agent", targetId: agent.id, targetName: agent.name });
const auditFields = (agent: Agent) =>
  auditPick(agent, [
    "name",
    "instructions",
    "model",
    "mcpIntegrationIds",
    "builtinTools",
    "requireToolApproval",
  ]);

export async function updateAgent(
  db: Database,
  ctx: RequestContext,
  id: string,
  input: unknown,
): Promise<Agent> {
  requireAdmin(ctx);
  const agent = await getAgent(db, ctx, id);
  const values = await validAgentInput(db, ctx, input);
  const [updated] = await db
    .update(agents)
    .set(values)
    .where(and(eq(agents.id, agent.id), eq(agents.organizationId, ctx.orgId)))
    .returning();
  if (!updated) throw new NotFoundError("That agent");
  await recordAudit(db, ctx, {
    action: "agent.update",
    ...auditTarget(updated),
    ...changedFields(auditFields(agent), auditFields(updated)),
  });
  return updated;
}

/** Deletes an agent; its conversations stay and continue with the default agent. */
export async function deleteAgent(db: Database, ctx: RequestContext, id: string): Promise<void> {
  requireAdmin(ctx);
  const agent = await getAgent(db, ctx, id);
  if (agent.isDefault) throw new ValidationError("The default agent cannot be deleted; edit it instead.");
  await db.delete(agents).where(and(eq(agents.id, agent.id), eq(agents.organizationId, ctx.orgId)));
  await recordAudit(db, ctx, { action: "agent.delete", ...auditTarget(agent), before: auditFields(agent) });
}
