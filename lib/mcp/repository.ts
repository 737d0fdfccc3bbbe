import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type DiscoveredSnapshot, type McpIntegrationRow, mcpIntegrations } from "@/db/schema";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { isUuid } from "@/lib/validation";

export type McpIntegration = McpIntegrationRow;

/**
 * An integration as the tool catalog keeps it in memory: what listing its tools and connecting to it need, without
 * the outcome of its last check (status, error, latency), which changes with every check and lists nothing.
 */
export type CatalogIntegration = Omit<McpIntegration, "status" | "lastError" | "lastLatencyMs" | "updatedAt">;

const catalogColumns = {
  id: mcpIntegrations.id,
  organizationId: mcpIntegrations.organizationId,
  name: mcpIntegrations.name,
  slug: mcpIntegrations.slug,
  transport: mcpIntegrations.transport,
  url: mcpIntegrations.url,
  command: mcpIntegrations.command,
  args: mcpIntegrations.args,
  envEncrypted: mcpIntegrations.envEncrypted,
  authType: mcpIntegrations.authType,
  oauth: mcpIntegrations.oauth,
  credentialsEncrypted: mcpIntegrations.credentialsEncrypted,
  enabled: mcpIntegrations.enabled,
  catalogKey: mcpIntegrations.catalogKey,
  timeoutMs: mcpIntegrations.timeoutMs,
  lastCheckedAt: mcpIntegrations.lastCheckedAt,
  discovered: mcpIntegrations.discovered,
  createdAt: mcpIntegrations.createdAt,
} satisfies { [K in keyof CatalogIntegration]: unknown };

/** The organization's integrations as the catalog keeps them, oldest first. */
export function listCatalogIntegrations(db: Database, orgId: string): Promise<CatalogIntegration[]> {
  return db
    .select(catalogColumns)
    .from(mcpIntegrations)
    .where(eq(mcpIntegrations.organizationId, orgId))
    .orderBy(asc(mcpIntegrations.createdAt));
}

/** One integration as the catalog keeps it, read again after it changed. */
export async function findCatalogIntegration(
  db: Database,
  id: string,
): Promise<CatalogIntegration | undefined> {
  const [row] = await db.select(catalogColumns).from(mcpIntegrations).where(eq(mcpIntegrations.id, id));
  return row;
}

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
      const [row] = await db
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
        .where(eq(mcpIntegrations.id, id))
        .returning({ organizationId: mcpIntegrations.organizationId });
      // Its tools, and when it was last checked (which decides when it is rediscovered), changed.
      if (row) await publishCatalogChange(db, row.organizationId, { integrationId: id });
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
