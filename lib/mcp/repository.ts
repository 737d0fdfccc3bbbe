import { and, asc, eq, inArray, like, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type DiscoveredSnapshot, type McpIntegrationRow, mcpIntegrations } from "@/db/schema";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { isUuid } from "@/lib/validation";
import type { IntegrationState } from "./integration-state";

// Every query of `mcp_integrations` lives here; each function says which columns it reads, and those that do not
// need the discovery snapshot (the largest column) leave it out.

export type McpIntegration = McpIntegrationRow;
export type NewMcpIntegration = typeof mcpIntegrations.$inferInsert;
export type McpIntegrationPatch = Partial<NewMcpIntegration>;

/**
 * An integration as the tool catalog keeps it in memory: what listing its tools and connecting to it need, without
 * the outcome of its last check (status, error, latency) or its state, which change with checks and calls and list
 * nothing.
 */
export type CatalogIntegration = Omit<
  McpIntegration,
  "status" | "lastError" | "lastLatencyMs" | "updatedAt" | "state" | "stateCause" | "stateChangedAt"
>;

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
  presetKey: mcpIntegrations.presetKey,
  timeoutMs: mcpIntegrations.timeoutMs,
  lastCheckedAt: mcpIntegrations.lastCheckedAt,
  discovered: mcpIntegrations.discovered,
  createdAt: mcpIntegrations.createdAt,
} satisfies { [K in keyof CatalogIntegration]: unknown };

/** What a conversation's start says of an integration it uses: no connection settings, no credentials. */
export type IntegrationSummary = Pick<
  McpIntegration,
  "id" | "name" | "slug" | "status" | "enabled" | "lastCheckedAt" | "discovered"
>;

const summaryColumns = {
  id: mcpIntegrations.id,
  name: mcpIntegrations.name,
  slug: mcpIntegrations.slug,
  status: mcpIntegrations.status,
  enabled: mcpIntegrations.enabled,
  lastCheckedAt: mcpIntegrations.lastCheckedAt,
  discovered: mcpIntegrations.discovered,
} satisfies { [K in keyof IntegrationSummary]: unknown };

const ofOrg = (orgId: string, id: string) =>
  and(eq(mcpIntegrations.id, id), eq(mcpIntegrations.organizationId, orgId));

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

/** Every organization's enabled integrations, for the health round (which acts for each one's organization). */
export function listEnabledIntegrations(db: Database): Promise<McpIntegration[]> {
  return db.select().from(mcpIntegrations).where(eq(mcpIntegrations.enabled, true));
}

/** One integration of the organization, or undefined for a missing id or another organization's. */
export async function findIntegrationForOrg(
  db: Database,
  orgId: string,
  id: string,
): Promise<McpIntegration | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(mcpIntegrations).where(ofOrg(orgId, id));
  return row;
}

/** One integration by id whatever its organization, for callers that check the organization themselves. */
async function findIntegrationById(db: Database, id: string): Promise<McpIntegration | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(mcpIntegrations).where(eq(mcpIntegrations.id, id));
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

/** The summaries of those of `ids` that are the organization's integrations, in no particular order. */
export function listIntegrationSummaries(
  db: Database,
  orgId: string,
  ids: string[],
): Promise<IntegrationSummary[]> {
  return db
    .select(summaryColumns)
    .from(mcpIntegrations)
    .where(and(inArray(mcpIntegrations.id, ids), eq(mcpIntegrations.organizationId, orgId)));
}

/** The ids among `ids` (UUIDs) that name integrations of the organization. */
export function listOwnIntegrationIds(db: Database, orgId: string, ids: string[]): Promise<{ id: string }[]> {
  return db
    .select({ id: mcpIntegrations.id })
    .from(mcpIntegrations)
    .where(and(inArray(mcpIntegrations.id, ids), eq(mcpIntegrations.organizationId, orgId)));
}

/** The organization's slugs that start with `prefix`, to find a free one. */
export async function listIntegrationSlugsStartingWith(
  db: Database,
  orgId: string,
  prefix: string,
): Promise<string[]> {
  const rows = await db
    .select({ slug: mcpIntegrations.slug })
    .from(mcpIntegrations)
    .where(and(eq(mcpIntegrations.organizationId, orgId), like(mcpIntegrations.slug, `${prefix}%`)));
  return rows.map((row) => row.slug);
}

/**
 * How many integrations the organization whose id `orgId` holds has, as a subquery for statements that report on
 * organizations in one round trip (`orgId` may be a column of the outer statement).
 */
export function integrationCountOf(orgId: SQL) {
  return sql<number>`(select count(*) from mcp_integrations i where i.organization_id = ${orgId})`.mapWith(
    Number,
  );
}

/** Whether the organization has any integration, as a subquery for statements that report in one round trip. */
export function hasIntegrations(orgId: string) {
  return sql<boolean>`exists (select 1 from mcp_integrations i where i.organization_id = ${orgId})`;
}

/** Adds an integration; the caller announces the catalog change. */
export async function insertIntegration(db: Database, values: NewMcpIntegration): Promise<McpIntegration> {
  const [row] = await db.insert(mcpIntegrations).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** Changes one integration of the organization; undefined when there is none (any more). */
export async function updateIntegrationForOrg(
  db: Database,
  orgId: string,
  id: string,
  patch: McpIntegrationPatch,
): Promise<McpIntegration | undefined> {
  const [row] = await db.update(mcpIntegrations).set(patch).where(ofOrg(orgId, id)).returning();
  return row;
}

export async function setIntegrationEnabledForOrg(
  db: Database,
  orgId: string,
  id: string,
  enabled: boolean,
): Promise<void> {
  await db.update(mcpIntegrations).set({ enabled, updatedAt: new Date() }).where(ofOrg(orgId, id));
}

/** Deletes one integration of the organization; `db` may be a transaction. */
export async function deleteIntegrationForOrg(db: Database, orgId: string, id: string): Promise<void> {
  await db.delete(mcpIntegrations).where(ofOrg(orgId, id));
}

export type DiscoveryOutcome =
  | { ok: true; latencyMs: number; discovered: DiscoveredSnapshot }
  | { ok: false; latencyMs: number; error: string };

/** Stores the outcome of a discovery as the integration's status (and its tools, when it succeeded). */
async function recordIntegrationDiscovery(
  db: Database,
  id: string,
  outcome: DiscoveryOutcome,
): Promise<void> {
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
}

/** Shows the integration as failing with `lastError`; `db` may be a transaction. The caller announces the change. */
export async function markIntegrationFailing(db: Database, id: string, lastError: string): Promise<void> {
  await db
    .update(mcpIntegrations)
    .set({ status: "failing", lastError, lastCheckedAt: new Date() })
    .where(eq(mcpIntegrations.id, id));
}

/**
 * Keeps the integration's state as this instance saw it change; the pages read it from here. Its catalog is not
 * told: a state lists nothing.
 */
export async function recordIntegrationState(
  db: Database,
  id: string,
  state: IntegrationState,
): Promise<void> {
  await db
    .update(mcpIntegrations)
    .set({ state: state.state, stateCause: state.cause, stateChangedAt: state.changedAt })
    .where(eq(mcpIntegrations.id, id));
}

type IntegrationKey = Pick<McpIntegration, "id" | "organizationId">;

/** Keeps a sealed OAuth client registration among the integration's credentials. */
export async function saveRegisteredClient(db: Database, integration: IntegrationKey, sealed: string) {
  await db
    .update(mcpIntegrations)
    .set({
      credentialsEncrypted: sql`${mcpIntegrations.credentialsEncrypted} || jsonb_build_object('registeredClient', ${sealed}::text)`,
    })
    .where(ofOrg(integration.organizationId, integration.id));
}

export async function forgetRegisteredClient(db: Database, integration: IntegrationKey) {
  await db
    .update(mcpIntegrations)
    .set({ credentialsEncrypted: sql`${mcpIntegrations.credentialsEncrypted} - 'registeredClient'` })
    .where(ofOrg(integration.organizationId, integration.id));
}

/** Keeps what OAuth discovery learnt of the server in the integration's OAuth settings. */
export async function saveOAuthDiscovery(db: Database, integration: IntegrationKey, state: unknown) {
  await db
    .update(mcpIntegrations)
    .set({
      oauth: sql`jsonb_set(coalesce(${mcpIntegrations.oauth}, '{}'::jsonb), '{discovery}', ${JSON.stringify(state)}::jsonb)`,
    })
    .where(ofOrg(integration.organizationId, integration.id));
}

export async function forgetOAuthDiscovery(db: Database, integration: IntegrationKey) {
  await db
    .update(mcpIntegrations)
    .set({ oauth: sql`${mcpIntegrations.oauth} - 'discovery'` })
    .where(ofOrg(integration.organizationId, integration.id));
}

/** The integrations port of the use cases: they look an integration up by id and check its organization themselves. */
export interface McpIntegrationsRepositoryPort {
  findById(id: string): Promise<McpIntegration | undefined>;
  recordDiscovery(id: string, outcome: DiscoveryOutcome): Promise<void>;
}

/** The port over this module's functions, so the use cases can be tested without a database. */
export function createIntegrationsRepository(db: Database): McpIntegrationsRepositoryPort {
  return {
    findById: (id) => findIntegrationById(db, id),
    recordDiscovery: (id, outcome) => recordIntegrationDiscovery(db, id, outcome),
  };
}
