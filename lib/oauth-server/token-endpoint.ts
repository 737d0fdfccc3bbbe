import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import {
  type OAuthClientRow,
  type OAuthGrantRow,
  oauthAuthorizationCodes,
  oauthGrants,
  oauthTokens,
} from "@/db/schema";
import { logger } from "@/lib/logger";
import { countOAuthTokens } from "@/lib/metrics/record";
import { mayRefresh } from "./client-metadata";
import { authenticateClient } from "./clients";
import { endGrant } from "./grants";
import { OAuthErrorCode, oauthError } from "./oauth-response";
import { endpointOfResource } from "./resources";
import { scopeNamesOf } from "./scope-names";
import { scopeOfGrant, scopeTokens } from "./scopes";
import { hashSecret } from "./secrets";
import { consumeCode, consumeRefreshToken, issueTokens, type TokenResponse } from "./tokens";

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const SINGLE_PARAMETERS = [
  "grant_type",
  "code",
  "redirect_uri",
  "code_verifier",
  "refresh_token",
  "scope",
  "client_id",
];

/**
 * The token endpoint (OAuth 2.1 §3.2): authenticates the client, then exchanges an authorization code (with its
 * PKCE verifier) or a refresh token (rotated: each is used once, and a second use ends the whole grant) for tokens.
 * Throws an OAuthError with what is wrong.
 */
export async function tokenRequest(
  db: Database,
  form: URLSearchParams,
  { authorization, issuer }: { authorization: string | null; issuer: string },
): Promise<TokenResponse> {
  const repeated = SINGLE_PARAMETERS.find((name) => form.getAll(name).length > 1);
  if (repeated) throw oauthError(OAuthErrorCode.InvalidRequest, `${repeated} is given more than once.`);
  const grantType = form.get("grant_type");
  if (!grantType) throw oauthError(OAuthErrorCode.InvalidRequest, "grant_type is missing.");
  if (grantType !== "authorization_code" && grantType !== "refresh_token")
    throw oauthError(
      OAuthErrorCode.UnsupportedGrantType,
      "grant_type must be authorization_code or refresh_token.",
    );
  const client = await authenticateClient(db, form, authorization);
  const tokens =
    grantType === "authorization_code"
      ? await exchangeCode(db, client, form, issuer)
      : await refreshTokens(db, client, form, issuer);
  countOAuthTokens(grantType);
  return tokens;
}

/** The grant's endpoint, unless the request names another resource (RFC 8707: a token is for one). */
function checkResource(form: URLSearchParams, issuer: string, grant: Pick<OAuthGrantRow, "resource">) {
  const resources = form.getAll("resource");
  if (resources.length > 1)
    throw oauthError(OAuthErrorCode.InvalidTarget, "Name one resource: a token is for one MCP endpoint.");
  if (resources[0] !== undefined && endpointOfResource(issuer, resources[0]) !== grant.resource)
    throw oauthError(
      OAuthErrorCode.InvalidTarget,
      "resource is not the endpoint this grant was authorized for.",
    );
}

function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

async function exchangeCode(
  db: Database,
  client: OAuthClientRow,
  form: URLSearchParams,
  issuer: string,
): Promise<TokenResponse> {
  const code = form.get("code");
  if (!code) throw oauthError(OAuthErrorCode.InvalidRequest, "code is missing.");
  const codeHash = hashSecret(code);
  const [row] = await db
    .select({ code: oauthAuthorizationCodes, grant: oauthGrants })
    .from(oauthAuthorizationCodes)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthAuthorizationCodes.grantId))
    .where(eq(oauthAuthorizationCodes.codeHash, codeHash));
  const invalid = (why: string) => oauthError(OAuthErrorCode.InvalidGrant, why);
  if (!row) throw invalid("The authorization code is not valid: unknown, expired or revoked.");
  if (row.grant.clientId !== client.id) throw invalid("The authorization code was issued to another client.");
  if (row.code.usedAt) throw await replayed(db, row.grant, "authorization code used twice");
  if (row.code.expiresAt.getTime() < Date.now())
    throw invalid("The authorization code has expired; authorize again.");
  if (form.get("redirect_uri") !== row.code.redirectUri)
    throw invalid("redirect_uri does not match the one the code was issued for.");
  const verifier = form.get("code_verifier");
  if (!verifier)
    throw oauthError(OAuthErrorCode.InvalidRequest, "code_verifier is missing: PKCE is required.");
  if (!VERIFIER.test(verifier) || !pkceMatches(verifier, row.code.codeChallenge))
    throw invalid("code_verifier does not match the code_challenge (S256).");
  checkResource(form, issuer, row.grant);
  if (!(await consumeCode(db, codeHash)))
    throw await replayed(db, row.grant, "authorization code used twice");
  return issueTokens(db, row.grant, { refresh: mayRefresh(client.metadata) });
}

async function refreshTokens(
  db: Database,
  client: OAuthClientRow,
  form: URLSearchParams,
  issuer: string,
): Promise<TokenResponse> {
  const token = form.get("refresh_token");
  if (!token) throw oauthError(OAuthErrorCode.InvalidRequest, "refresh_token is missing.");
  const tokenHash = hashSecret(token);
  const [row] = await db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, "refresh")));
  const invalid = (why: string) => oauthError(OAuthErrorCode.InvalidGrant, why);
  if (!row) throw invalid("The refresh token is not valid: unknown, expired or revoked. Authorize again.");
  if (row.grant.clientId !== client.id) throw invalid("The refresh token was issued to another client.");
  if (row.token.usedAt) throw await replayed(db, row.grant, "refresh token used twice");
  if (row.token.expiresAt.getTime() < Date.now())
    throw invalid("The refresh token has expired. Authorize again.");
  const asked = scopeTokens(form.get("scope")).filter((scope) => scope !== "offline_access");
  if (asked.length) {
    const granted = new Set(
      scopeTokens(scopeOfGrant(row.grant.scope ?? null, await scopeNamesOf(db, row.grant.organizationId))),
    );
    const beyond = asked.filter((scope) => !granted.has(scope));
    if (beyond.length)
      throw oauthError(
        OAuthErrorCode.InvalidScope,
        `${beyond.join(" ")} was not granted; authorize again to ask for it.`,
      );
  }
  checkResource(form, issuer, row.grant);
  if (!(await consumeRefreshToken(db, tokenHash)))
    throw await replayed(db, row.grant, "refresh token used twice");
  return issueTokens(db, row.grant, { refresh: true });
}

/**
 * A code or refresh token presented a second time: someone else may hold it, so the whole grant ends (its tokens
 * with it) and the person's client must authorize again (OAuth 2.1 §4.3.1, §7.5).
 */
async function replayed(db: Database, grant: Pick<OAuthGrantRow, "id" | "organizationId">, reason: string) {
  logger.warn("oauth grant ended on a replay", {
    oauthGrantId: grant.id,
    orgId: grant.organizationId,
    reason,
  });
  await endGrant(db, grant.id, reason);
  return oauthError(
    OAuthErrorCode.InvalidGrant,
    `This ${reason.startsWith("refresh") ? "refresh token" : "authorization code"} was already used, so the grant was revoked. Authorize again.`,
  );
}
