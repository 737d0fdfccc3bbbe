import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type DiscoveredSnapshot, type McpIntegrationRow, mcpIntegrations } from "@/db/schema";
import { isUuid } from "@/lib/validation";

export type McpIntegration = McpIntegrationRow;

/** The integrations port of the use cases: they look an integration up by id and check its organization themselves. */
export interface McpIntegrationsRepositoryPort {
  findById(id: string): Promise<McpIntegration | undefined>;
  recordDiscovery(id: string, outcome: DiscoveryOutcome): Promise<void>;
}

export type DiscoveryOutcome =
  | { ok: true; latencyMs: number; discovered: DiscoveredSnapshot }
  | { ok: false; latencyMs: number; error: string };

export function createIntegrationsRepository(db: Database): McpIntegrationsRepositoryPort {
  return {
    async findById(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(mcpIntegrations).where(eq(mcpIntegrations.id, id));
      return row;
    },
    async recordDiscovery(id, outcome) {
      await db
        .update(mcpIntegrations)
        .set(
          outcome.ok
            ? {
                status: "connected",
                lastError: null,
                lastCheckedAt: new Date(),
                lastLatencyMs: outcome.latencyMs,
                discovered: outcome.discovered,
              }
            : {
                status: "failing",
                lastError: outcome.error,
                lastCheckedAt: new Date(),
                lastLatencyMs: outcome.latencyMs,
              },
        )
        .where(eq(mcpIntegrations.id, id));
    },
  };
}

/** The organization's integrations, oldest first. */
export function listIntegrationsForOrg(db: Database, orgId: string): Promise<McpIntegration[]> {
  return db
    .select()
    .from(mcpIntegrations)
    .where(eq(mcpIntegrations.organizationId, orgId))
    .orderBy(asc(mcpIntegrations.createdAt));
}

/** The organization's integrations whose tool names could be `toolName` (their slug prefixes it), oldest first. */
export function listIntegrationsForToolName(
  db: Database,
  orgId: string,
  toolName: string,
): Promise<McpIntegration[]> {
  return db
    .select()
    .from(mcpIntegrations)
    .where(
      and(
        eq(mcpIntegrations.organizationId, orgId),
        sql`starts_with(${toolName}, ${mcpIntegrations.slug} || '_')`,
      ),
    )
    .orderBy(asc(mcpIntegrations.createdAt));
}

/** One integration of the organization, or undefined for a missing id or another organization's. */
export async function findIntegrationForOrg(
  db: Database,
  orgId: string,
  id: string,
): Promise<McpIntegration | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(mcpIntegrations)
    .where(and(eq(mcpIntegrations.id, id), eq(mcpIntegrations.organizationId, orgId)));
  return row;
}

export async function findIntegrationBySlug(
  db: Database,
  orgId: string,
  slug: string,
): Promise<McpIntegration | undefined> {
  const [row] = await db
    .select()
    .from(mcpIntegrations)
    .where(and(eq(mcpIntegrations.slug, slug), eq(mcpIntegrations.organizationId, orgId)));
  return row;
}
