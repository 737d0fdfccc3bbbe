import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type OAuthGrantRow, oauthAuthorizationCodes, oauthTokens } from "@/db/schema";
import { scopeNamesOf } from "./scope-names";
import { scopeOfGrant } from "./scopes";
import { hashSecret, newSecret } from "./secrets";

/** Access tokens live about an hour: a revoked grant is refused at once anyway, an expired token refreshes. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A refresh token lasts 30 days unused; each use rotates it, so a client in use never loses its grant. */
const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** A code is exchanged right after the redirect; two minutes allow for a slow client. */
const CODE_SECONDS = 120;

/** A token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** Issues an authorization code for a grant, bound to the redirect URI and PKCE challenge of its request. */
export async function issueCode(
  db: Pick<Database, "insert">,
  grantId: string,
  { redirectUri, codeChallenge }: { redirectUri: string; codeChallenge: string },
): Promise<string> {
  const code = newSecret("code");
  await db.insert(oauthAuthorizationCodes).values({
    codeHash: hashSecret(code),
    grantId,
    redirectUri,
    codeChallenge,
    expiresAt: new Date(Date.now() + CODE_SECONDS * 1000),
  });
  return code;
}

/** Marks a code or refresh token used, once: false when it was used already (a replay, perhaps concurrent). */
export async function consumeCode(db: Database, codeHash: string): Promise<boolean> {
  const used = await db
    .update(oauthAuthorizationCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthAuthorizationCodes.codeHash, codeHash), isNull(oauthAuthorizationCodes.usedAt)))
    .returning({ codeHash: oauthAuthorizationCodes.codeHash });
  return used.length > 0;
}

export async function consumeRefreshToken(db: Database, tokenHash: string): Promise<boolean> {
  const used = await db
    .update(oauthTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthTokens.tokenHash, tokenHash), isNull(oauthTokens.usedAt)))
    .returning({ tokenHash: oauthTokens.tokenHash });
  return used.length > 0;
}

/**
 * A new access token for the grant, and a refresh token unless the client registered without that grant type.
 * Both are stored as hashes; expired rows are swept as new ones are written. The scope says what the grant reaches.
 */
export async function issueTokens(
  db: Database,
  grant: Pick<OAuthGrantRow, "id" | "organizationId" | "scope">,
  { refresh }: { refresh: boolean },
): Promise<TokenResponse> {
  const now = Date.now();
  const accessToken = newSecret("accessToken");
  const refreshToken = refresh ? newSecret("refreshToken") : undefined;
  await db.insert(oauthTokens).values([
    {
      tokenHash: hashSecret(accessToken),
      grantId: grant.id,
      kind: "access",
      expiresAt: new Date(now + ACCESS_TOKEN_SECONDS * 1000),
    },
    ...(refreshToken
      ? [
          {
            tokenHash: hashSecret(refreshToken),
            grantId: grant.id,
            kind: "refresh" as const,
            expiresAt: new Date(now + REFRESH_TOKEN_SECONDS * 1000),
          },
        ]
      : []),
  ]);
  await db.delete(oauthTokens).where(lt(oauthTokens.expiresAt, sql`now()`));
  await db.delete(oauthAuthorizationCodes).where(lt(oauthAuthorizationCodes.expiresAt, sql`now()`));
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_SECONDS,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: scopeOfGrant(grant.scope ?? null, await scopeNamesOf(db, grant.organizationId)),
  };
}
