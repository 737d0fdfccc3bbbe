import { and, eq, isNull, type SQL } from "drizzle-orm";
import { type Database, isEmbeddedDatabase } from "@/db/client";
import { mcpOAuthCredentials } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { markIntegrationFailing } from "../repository";
import { withLocalLock } from "./local-lock";
import type { OAuthTokenSet } from "./token-set";
import type { OAuthTokenVault, RefreshOutcome } from "./token-source";

/** Whose tokens: the organization's shared connection (no user) or one user's own. */
export interface CredentialOwner {
  organizationId: string;
  integrationId: string;
  userId: string | null;
}

type StoredCredential = typeof mcpOAuthCredentials.$inferSelect;

function ownerFilter(owner: CredentialOwner): SQL | undefined {
  return and(
    eq(mcpOAuthCredentials.organizationId, owner.organizationId),
    eq(mcpOAuthCredentials.integrationId, owner.integrationId),
    owner.userId === null ? isNull(mcpOAuthCredentials.userId) : eq(mcpOAuthCredentials.userId, owner.userId),
  );
}

/** A stored credential's tokens, decrypted. */
export function storedTokenSet(row: StoredCredential): OAuthTokenSet {
  return {
    accessToken: decryptSecret(row.accessTokenEncrypted),
    refreshToken: row.refreshTokenEncrypted ? decryptSecret(row.refreshTokenEncrypted) : undefined,
    expiresAt: row.expiresAt?.getTime(),
    scope: row.scope ?? undefined,
  };
}

function sealedTokens(tokens: OAuthTokenSet) {
  return {
    accessTokenEncrypted: encryptSecret(tokens.accessToken),
    refreshTokenEncrypted: tokens.refreshToken ? encryptSecret(tokens.refreshToken) : null,
    expiresAt: tokens.expiresAt === undefined ? null : new Date(tokens.expiresAt),
    scope: tokens.scope ?? null,
  };
}

export async function findCredential(
  db: Database,
  owner: CredentialOwner,
): Promise<StoredCredential | undefined> {
  const [row] = await db.select().from(mcpOAuthCredentials).where(ownerFilter(owner));
  return row;
}

/** Stores the tokens of a finished authorization, replacing whatever the owner had. */
export async function saveConnectedTokens(
  db: Database,
  owner: CredentialOwner,
  tokens: OAuthTokenSet,
  connectedBy: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(mcpOAuthCredentials).where(ownerFilter(owner));
    await tx.insert(mcpOAuthCredentials).values({ ...owner, ...sealedTokens(tokens), connectedBy });
  });
}

export async function deleteCredential(db: Database, owner: CredentialOwner): Promise<boolean> {
  const removed = await db
    .delete(mcpOAuthCredentials)
    .where(ownerFilter(owner))
    .returning({ id: mcpOAuthCredentials.id });
  return removed.length > 0;
}

/** Deletes every connection to the integration (the organization's and each member's). */
export async function deleteIntegrationCredentials(db: Database, integrationId: string): Promise<void> {
  await db.delete(mcpOAuthCredentials).where(eq(mcpOAuthCredentials.integrationId, integrationId));
}

/** Deletes the member's own connections to the organization's integrations; `db` may be a transaction. */
export async function deleteMemberCredentials(db: Database, orgId: string, userId: string): Promise<void> {
  await db
    .delete(mcpOAuthCredentials)
    .where(and(eq(mcpOAuthCredentials.organizationId, orgId), eq(mcpOAuthCredentials.userId, userId)));
}

/**
 * The owner's tokens in the database, encrypted. A refresh locks the row (`for update`) on PostgreSQL, so
 * instances of the app refresh one at a time and each sees the rotated refresh token the previous one stored;
 * on the embedded database, which one process serves, a lock of the process does the same.
 */
export function storedTokenVault(
  db: Database,
  owner: CredentialOwner,
  integrationName: string,
): OAuthTokenVault {
  return {
    key: `oauth:${owner.integrationId}:${owner.userId ?? "organization"}`,
    async read() {
      const row = await findCredential(db, owner);
      if (!row) return undefined;
      return row.status === "connected"
        ? storedTokenSet(row)
        : { revoked: row.lastError ?? "it was revoked" };
    },
    async refreshLocked(refresh) {
      const run = async (tx: Database): Promise<RefreshOutcome> => {
        const query = tx.select().from(mcpOAuthCredentials).where(ownerFilter(owner));
        const [row] = isEmbeddedDatabase(db) ? await query : await query.for("update");
        const outcome = await refresh(row?.status === "connected" ? storedTokenSet(row) : undefined);
        if (!row) return outcome;
        if (outcome.kind === "refreshed") {
          await tx
            .update(mcpOAuthCredentials)
            .set({ ...sealedTokens(outcome.tokens), refreshedAt: new Date(), lastError: null })
            .where(eq(mcpOAuthCredentials.id, row.id));
        }
        if (outcome.kind === "revoked") {
          await tx
            .update(mcpOAuthCredentials)
            .set({ status: "needs_reconnect", lastError: outcome.reason })
            .where(eq(mcpOAuthCredentials.id, row.id));
          // The organization's connection broke: the integration itself shows it where admins look.
          if (owner.userId === null) {
            await markIntegrationFailing(
              tx,
              owner.integrationId,
              `${integrationName} needs to be connected again: ${outcome.reason}.`,
            );
            await publishCatalogChange(db, owner.organizationId, {
              integrationId: owner.integrationId,
              executor: tx,
            });
          }
        }
        return outcome;
      };
      // The embedded database serves one process, where a lock of the process does what the row lock does.
      return isEmbeddedDatabase(db)
        ? withLocalLock(`oauth-row:${owner.integrationId}:${owner.userId ?? ""}`, () => run(db))
        : db.transaction((tx) => run(tx as unknown as Database));
    },
  };
}
