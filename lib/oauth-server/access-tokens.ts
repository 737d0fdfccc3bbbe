import { and, eq, isNull } from "drizzle-orm";
import { cachePerDatabase } from "@/db/change-cache";
import type { Database } from "@/db/client";
import {
  type ApiKeyScope,
  memberships,
  oauthClients,
  oauthGrants,
  oauthTokens,
  organizations,
  users,
} from "@/db/schema";
import { toolScopeOf } from "@/lib/api-keys/key-scope";
import type { ToolScope } from "@/lib/tools/scope";
import { GRANTS_CHANNEL } from "./grants";
import { OAuthErrorCode, oauthError } from "./oauth-response";
import type { Endpoint } from "./resources";
import { hashSecret, looksLike } from "./secrets";

// Written at most once a minute per grant, as an API key's last use is.
const LAST_USED_RESOLUTION_MS = 60_000;

/** What a request needs to know of an access token, kept in memory between requests. */
interface KnownToken {
  grantId: string;
  organizationId: string;
  userId: string;
  clientRowId: string;
  clientName: string;
  endpoint: Endpoint;
  scope: ApiKeyScope | null;
  toolScope: ToolScope;
  metaToolsOnly: boolean;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

/**
 * Tokens by hash, read with everything that can end them (the grant, the organization's switch, the person's
 * membership and account) and kept a minute at most: a revocation, a removal from the organization, a disabled
 * account or the switch turned off is published on the change feed and drops them at once on every instance.
 */
const knownTokens = cachePerDatabase<KnownToken>({
  channel: GRANTS_CHANNEL,
  ttlMs: 60_000,
  maxEntries: 10_000,
  concerns: (token, payload) =>
    token.grantId === payload ||
    token.organizationId === payload ||
    token.userId === payload ||
    token.clientRowId === payload,
});

async function readActiveToken(db: Database, tokenHash: string): Promise<KnownToken | undefined> {
  const [row] = await db
    .select({
      grantId: oauthGrants.id,
      organizationId: oauthGrants.organizationId,
      userId: oauthGrants.userId,
      clientRowId: oauthGrants.clientId,
      clientMetadata: oauthClients.metadata,
      endpoint: oauthGrants.resource,
      scope: oauthGrants.scope,
      metaToolsOnly: oauthGrants.metaToolsOnly,
      expiresAt: oauthTokens.expiresAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(organizations, eq(organizations.id, oauthGrants.organizationId))
    .innerJoin(
      memberships,
      and(
        eq(memberships.organizationId, oauthGrants.organizationId),
        eq(memberships.userId, oauthGrants.userId),
      ),
    )
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(
      and(
        eq(oauthTokens.tokenHash, tokenHash),
        eq(oauthTokens.kind, "access"),
        eq(organizations.oauthClientsEnabled, true),
        isNull(users.disabledAt),
      ),
    );
  if (!row) return undefined;
  const { clientMetadata, ...token } = row;
  return {
    ...token,
    endpoint: token.endpoint as Endpoint,
    clientName: clientMetadata.client_name?.trim() || "OAuth client",
    toolScope: toolScopeOf(token.scope),
  };
}

/** A verified access token: who it acts for, through which client, and what it may use. */
export interface VerifiedToken {
  grantId: string;
  orgId: string;
  userId: string;
  clientId: string;
  clientName: string;
  toolScope: ToolScope;
  metaToolsOnly: boolean;
  /** Seconds since the epoch, as OAuth's `exp`. */
  expiresAt: number;
}

/**
 * Verifies an access token presented at an MCP endpoint: one we issued, not revoked, not expired, and issued for
 * this very endpoint (RFC 8707 audience). Throws invalid_token saying which. Read once and then from memory, as
 * API keys are, so a token costs no more per request than a key.
 */
export async function verifyAccessToken(
  db: Database,
  token: string,
  endpoint: Endpoint,
): Promise<VerifiedToken> {
  if (!looksLike("accessToken", token))
    throw oauthError(
      OAuthErrorCode.InvalidToken,
      "The bearer token is neither an API key nor an access token of this server.",
    );
  const tokenHash = hashSecret(token);
  const known = await knownTokens(db).load(tokenHash, () => readActiveToken(db, tokenHash));
  if (!known) throw oauthError(OAuthErrorCode.InvalidToken, "The access token is not valid, or was revoked.");
  const now = new Date();
  if (known.expiresAt <= now) throw oauthError(OAuthErrorCode.InvalidToken, "The access token has expired.");
  if (known.endpoint !== endpoint)
    throw oauthError(
      OAuthErrorCode.InvalidToken,
      "The access token was issued for another resource; ask for one for this endpoint.",
    );
  if (!known.lastUsedAt || now.getTime() - known.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Noted before the write, so requests arriving meanwhile do not write it again.
    known.lastUsedAt = now;
    await db.update(oauthGrants).set({ lastUsedAt: now }).where(eq(oauthGrants.id, known.grantId));
  }
  return {
    grantId: known.grantId,
    orgId: known.organizationId,
    userId: known.userId,
    clientId: known.clientRowId,
    clientName: known.clientName,
    toolScope: known.toolScope,
    metaToolsOnly: known.metaToolsOnly,
    expiresAt: Math.floor(known.expiresAt.getTime() / 1000),
  };
}
