import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type Agent, agents } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/validation";

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

export async function listAgents(db: Database, ctx: RequestContext): Promise<Agent[]> {
  await ensureDefaultAgent(db, ctx.orgId);
  return db.select().from(agents).where(eq(agents.organizationId, ctx.orgId)).orderBy(asc(agents.createdAt));
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
