import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Agent, agents, type NewAgent } from "@/db/schema";

/*
 * The one owner of the agents table: every query of it is here. It imports nothing of the app's domain, so the
 * chat (which manages agents) and the integrations and capabilities (which agents name) can all use it.
 */

/** The organization's default agent, if it has one yet. */
export async function findDefaultAgent(db: Database, orgId: string): Promise<Agent | undefined> {
  const [agent] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.organizationId, orgId), eq(agents.isDefault, true)));
  return agent;
}

/** The organization's agents, the default one first, then by age. */
export function listAgentRows(db: Database, orgId: string): Promise<Agent[]> {
  return db
    .select()
    .from(agents)
    .where(eq(agents.organizationId, orgId))
    .orderBy(desc(agents.isDefault), asc(agents.createdAt));
}

/** One of the organization's agents by id. */
export async function findAgent(db: Database, orgId: string, id: string): Promise<Agent | undefined> {
  const [agent] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.organizationId, orgId)));
  return agent;
}

export async function insertAgent(db: Database, values: NewAgent): Promise<Agent> {
  const [created] = await db.insert(agents).values(values).returning();
  if (!created) throw new Error("insert returned no row");
  return created;
}

/** Updates one of the organization's agents: the row as it is now, or undefined when it is gone. */
export async function updateAgentRow(
  db: Database,
  orgId: string,
  id: string,
  values: Partial<NewAgent>,
): Promise<Agent | undefined> {
  const [updated] = await db
    .update(agents)
    .set(values)
    .where(and(eq(agents.id, id), eq(agents.organizationId, orgId)))
    .returning();
  return updated;
}

export async function deleteAgentRow(db: Database, orgId: string, id: string): Promise<void> {
  await db.delete(agents).where(and(eq(agents.id, id), eq(agents.organizationId, orgId)));
}

/** Agents that listed a deleted integration stop listing it, instead of reporting it missing at each conversation. */
export async function forgetIntegrationInAgents(
  db: Database,
  orgId: string,
  integrationId: string,
): Promise<void> {
  await db
    .update(agents)
    .set({ mcpIntegrationIds: sql`${agents.mcpIntegrationIds} - ${integrationId}::text` })
    .where(and(eq(agents.organizationId, orgId), sql`${agents.mcpIntegrationIds} ? ${integrationId}::text`));
}

/** Agents that listed a deleted capability stop listing it; one left with none keeps none, not every capability. */
export async function forgetCapabilityInAgents(
  db: Database,
  orgId: string,
  capabilityId: string,
): Promise<void> {
  await db
    .update(agents)
    .set({ capabilityIds: sql`${agents.capabilityIds} - ${capabilityId}::text` })
    .where(and(eq(agents.organizationId, orgId), sql`${agents.capabilityIds} ? ${capabilityId}::text`));
}
