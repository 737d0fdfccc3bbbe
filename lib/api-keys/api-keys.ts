import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { cachePerDatabase } from "@/db/change-cache";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { type ApiKeyScope, apiKeys } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { NotFoundError, UnauthorizedError } from "@/lib/errors";
import type { ToolScope } from "@/lib/tools/scope";
import { isUuid, parseInput } from "@/lib/validation";
import { hasExpired, resolveExpiry } from "./key-expiry";
import { apiKeyScopeInputSchema, normalizeScope, toolScopeOf } from "./key-scope";
import { requireOwnScope } from "./scope-ownership";

const KEY_PATTERN = /^sb_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{32,})$/;

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  metaToolsOnly: boolean;
  expiresAt: string | null;
  scope: ApiKeyScope | null;
}

/** An API request's context, with what its key allows: `toolScope` goes to every catalog listing and call. */
export type ApiKeyContext = RequestContext & {
  apiKeyId: string;
  metaToolsOnly: boolean;
  toolScope: ToolScope;
};

const createInputSchema = z.object({
  name: z
    .string({ error: "Enter a name for the key." })
    .trim()
    .min(1, { error: "Enter a name for the key." })
    .max(60, { error: "Use at most 60 characters for the name." }),
  metaToolsOnly: z.boolean({ error: "metaToolsOnly is true or false." }).default(false),
  scope: apiKeyScopeInputSchema,
});

export interface CreateApiKeyInput {
  name: unknown;
  metaToolsOnly?: unknown;
  /** Days from now until the key expires; or else `expiresAt`; neither: it never expires. */
  expiresInDays?: unknown;
  /** A Date, an ISO instant, or an ISO date (the key then works through that day, UTC). */
  expiresAt?: unknown;
  /** What the key may list and call (`ApiKeyScope`); absent or null: everything. */
  scope?: unknown;
}

/**
 * Creates a key for the context's organization, with an optional expiry and scope (every id in it the
 * organization's own); the key itself is returned once and stored only as a hash.
 */
export async function createApiKey(db: Database, ctx: RequestContext, input: CreateApiKeyInput) {
  requireAdmin(ctx);
  const parsed = parseInput(createInputSchema, {
    name: input.name,
    metaToolsOnly: input.metaToolsOnly,
    scope: input.scope,
  });
  const { name, metaToolsOnly } = parsed;
  const expiresAt = resolveExpiry(
    { expiresInDays: input.expiresInDays, expiresAt: input.expiresAt },
    new Date(),
  );
  const scope = normalizeScope(parsed.scope);
  await requireOwnScope(db, ctx.orgId, scope);
  const prefix = randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);
  const key = `sb_${prefix}_${randomBytes(24).toString("base64url")}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      organizationId: ctx.orgId,
      name,
      prefix: `sb_${prefix}`,
      keyHash: hashKey(key),
      createdBy: ctx.userId ?? null,
      metaToolsOnly,
      expiresAt,
      scope,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  await recordAudit(db, ctx, {
    action: "api_key.create",
    targetType: "api_key",
    targetId: row.id,
    targetName: row.name,
    after: {
      name: row.name,
      prefix: row.prefix,
      metaToolsOnly: row.metaToolsOnly,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      scope: row.scope,
    },
  });
  return { key, apiKey: toView(row) };
}

function toView(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    metaToolsOnly: row.metaToolsOnly,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    scope: row.scope ?? null,
  };
}

export async function listApiKeys(db: Database, ctx: RequestContext): Promise<ApiKeyView[]> {
  requireAdmin(ctx);
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, ctx.orgId))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(toView);
}

/** Revokes a key at once, on every instance: the next request with it gets 401. */
export async function revokeApiKey(db: Database, ctx: RequestContext, id: string) {
  requireAdmin(ctx);
  if (!isUuid(id)) throw new NotFoundError("That active API key");
  const revoked = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, ctx.orgId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name });
    if (row) await publishChange(db, "switchboard_api_keys", row.id, tx);
    return row;
  });
  if (!revoked) throw new NotFoundError("That active API key");
  await recordAudit(db, ctx, {
    action: "api_key.revoke",
    targetType: "api_key",
    targetId: revoked.id,
    targetName: revoked.name,
  });
}

// Writing last-used on every request would make each call a write; once a minute is plenty to show.
const LAST_USED_RESOLUTION_MS = 60_000;

/** What a request needs to know of its key, kept in memory between requests. */
interface KnownKey {
  id: string;
  organizationId: string;
  expiresAt: Date | null;
  metaToolsOnly: boolean;
  toolScope: ToolScope;
  lastUsedAt: Date | null;
}

/**
 * Keys by hash, for a minute at most: a revocation is published on the change feed and drops the key at once on
 * every instance (the minute is only a safety net). Expiry is still checked on every request.
 */
const knownKeys = cachePerDatabase<KnownKey>({
  channel: "switchboard_api_keys",
  ttlMs: 60_000,
  maxEntries: 10_000,
  concerns: (key, payload) => key.id === payload || key.organizationId === payload,
});

async function readActiveKey(db: Database, keyHash: string): Promise<KnownKey | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      lastUsedAt: apiKeys.lastUsedAt,
      metaToolsOnly: apiKeys.metaToolsOnly,
      expiresAt: apiKeys.expiresAt,
      scope: apiKeys.scope,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  if (!row) return undefined;
  const { scope, ...key } = row;
  return { ...key, toolScope: toolScopeOf(scope) };
}

/**
 * The context of a request authenticated with `Authorization: Bearer <key>`; the key's organization is the
 * tenant, its scope the tools it reaches. This runs before every API request, so a key is read once and then
 * kept in memory until it changes (see knownKeys).
 */
export async function authenticateApiKey(db: Database, authorization: string | null): Promise<ApiKeyContext> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  const key = match?.[1];
  if (!key || !KEY_PATTERN.test(key)) {
    throw new UnauthorizedError("Send a valid API key as `Authorization: Bearer <key>`.");
  }
  const keyHash = hashKey(key);
  const known = await knownKeys(db).load(keyHash, () => readActiveKey(db, keyHash));
  if (!known) throw new UnauthorizedError("This API key is not valid or has been revoked.");
  const now = new Date();
  if (hasExpired(known.expiresAt, now))
    throw new UnauthorizedError("This API key has expired. Create a new one in Settings → API keys.");
  if (!known.lastUsedAt || now.getTime() - known.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Noted before the write, so requests arriving meanwhile do not write it again.
    known.lastUsedAt = now;
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, known.id));
  }
  return {
    apiKeyId: known.id,
    orgId: known.organizationId,
    role: "member",
    isSuperadmin: false,
    metaToolsOnly: known.metaToolsOnly,
    toolScope: known.toolScope,
  };
}
