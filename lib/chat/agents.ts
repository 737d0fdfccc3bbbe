import type { Database } from "@/db/client";
import type { Agent } from "@/db/schema";
import {
  deleteAgentRow,
  findAgent,
  findDefaultAgent,
  insertAgent,
  listAgentRows,
  updateAgentRow,
} from "@/lib/agents/agent-rows";
import { auditPick, changedFields, recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { listOwnCapabilityIds } from "@/lib/capabilities/store";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { listOwnIntegrationIds } from "@/lib/mcp/repository";
import { isUuid, parseInput } from "@/lib/validation";
import { type AgentInput, agentInputSchema } from "./agent-schemas";

const DEFAULT_INSTRUCTIONS =
  "You are the organization's assistant. Use the available tools when they help, say which tool you used, and explain tool errors plainly.";

/**
 * The organization's default agent (all enabled integrations, every capability, every built-in tool), created on
 * first use.
 */
export async function ensureDefaultAgent(db: Database, orgId: string): Promise<Agent> {
  const existing = await findDefaultAgent(db, orgId);
  if (existing) return existing;
  return insertAgent(db, {
    organizationId: orgId,
    name: "Assistant",
    instructions: DEFAULT_INSTRUCTIONS,
    isDefault: true,
    // The assistant every member starts with runs tools as it always has; owners choose to make it ask.
    toolApproval: "never",
  });
}

/** The organization's agents, the default one first. */
export async function listAgents(db: Database, ctx: RequestContext): Promise<Agent[]> {
  await ensureDefaultAgent(db, ctx.orgId);
  return listAgentRows(db, ctx.orgId);
}

export async function getAgent(db: Database, ctx: RequestContext, id: string): Promise<Agent> {
  if (!isUuid(id)) throw new NotFoundError("That agent");
  const agent = await findAgent(db, ctx.orgId, id);
  if (!agent) throw new NotFoundError("That agent");
  return agent;
}

/**
 * The chosen ids without repeats, or a message when one is not the organization's (or is no id at all); null
 * (everything) passes as it is.
 */
async function ownIds(
  ids: string[] | null,
  message: string,
  findOwn: (ids: string[]) => Promise<unknown[]>,
): Promise<{ ids: string[] | null; error?: string }> {
  if (!ids) return { ids: null };
  const unique = [...new Set(ids)];
  if (unique.length === 0) return { ids: unique };
  const known = unique.every(isUuid) ? await findOwn(unique) : [];
  return known.length === unique.length ? { ids: unique } : { ids: unique, error: message };
}

/** Parses an agent and checks that every chosen integration and capability is one of the organization's. */
async function validAgentInput(db: Database, ctx: RequestContext, input: unknown): Promise<AgentInput> {
  const parsed = parseInput(agentInputSchema, input);
  const [integrations, ownCapabilities] = await Promise.all([
    ownIds(parsed.mcpIntegrationIds, "Choose integrations of this organization.", (ids) =>
      listOwnIntegrationIds(db, ctx.orgId, ids),
    ),
    ownIds(parsed.capabilityIds, "Choose capabilities of this organization.", (ids) =>
      listOwnCapabilityIds(db, ctx.orgId, ids),
    ),
  ]);
  const fields = {
    ...(integrations.error ? { mcpIntegrationIds: [integrations.error] } : {}),
    ...(ownCapabilities.error ? { capabilityIds: [ownCapabilities.error] } : {}),
  };
  const first = integrations.error ?? ownCapabilities.error;
  if (first) throw new ValidationError(first, fields);
  return {
    ...parsed,
    mcpIntegrationIds: integrations.ids,
    capabilityIds: ownCapabilities.ids,
    builtinTools: [...new Set(parsed.builtinTools)],
  };
}

export async function createAgent(db: Database, ctx: RequestContext, input: unknown): Promise<Agent> {
  requireAdmin(ctx);
  const values = await validAgentInput(db, ctx, input);
  const created = await insertAgent(db, { ...values, organizationId: ctx.orgId });
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
    "capabilityIds",
    "builtinTools",
    "toolApproval",
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
  const updated = await updateAgentRow(db, ctx.orgId, agent.id, values);
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
  await deleteAgentRow(db, ctx.orgId, agent.id);
  await recordAudit(db, ctx, { action: "agent.delete", ...auditTarget(agent), before: auditFields(agent) });
}
