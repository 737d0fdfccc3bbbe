import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { type OAuthClientRow, oauthAuthorizationRequests, oauthClients } from "@/db/schema";
import { findClient } from "./clients";
import { OAuthError, OAuthErrorCode, oauthError } from "./oauth-response";
import { isRegisteredRedirect } from "./redirect-uris";
import { type Endpoint, endpointOfResource } from "./resources";
import { unknownScopes } from "./scopes";
import { newRequestId } from "./secrets";

/** The person has this long to sign in and consent before the request must start again. */
const REQUEST_TTL_MS = 15 * 60_000;
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const SINGLE_PARAMETERS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
];

/** Where an authorization request's answer goes: the client's redirect URI, with its state and our issuer. */
export interface AuthorizationReply {
  redirectUri: string;
  state: string | null;
  issuer: string;
}

/** The authorization response's URL (RFC 6749 §4.1.2), with `iss` (RFC 9207) so the client can tell who answered. */
export function replyUrl(reply: AuthorizationReply, params: Record<string, string>): string {
  const url = new URL(reply.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (reply.state !== null) url.searchParams.set("state", reply.state);
  url.searchParams.set("iss", reply.issuer);
  return url.toString();
}

export type AuthorizationCheck =
  /** The request is sound and waits for the person's consent under this id. */
  | { kind: "pending"; requestId: string }
  /** The client and redirect URI are known, so the error goes back to the client there. */
  | { kind: "redirect"; url: string; error: OAuthError }
  /** Nothing can be trusted to send the person back to: the error is shown where they are. */
  | { kind: "refused"; error: OAuthError };

/**
 * Checks an authorization request (OAuth 2.1 §4.1.1): the client and its exact redirect URI first (until both are
 * known, nothing is redirected), then the code flow with PKCE S256 only, one resource (RFC 8707) that is one of
 * this app's MCP endpoints (the aggregated one when absent), and known scopes. A sound request is kept for the
 * consent page under an unguessable id.
 */
export async function checkAuthorizationRequest(
  db: Database,
  params: URLSearchParams,
  issuer: string,
): Promise<AuthorizationCheck> {
  const refused = (code: OAuthErrorCode, description: string): AuthorizationCheck => ({
    kind: "refused",
    error: oauthError(code, description),
  });
  const repeated = SINGLE_PARAMETERS.find((name) => params.getAll(name).length > 1);
  if (repeated) return refused(OAuthErrorCode.InvalidRequest, `${repeated} is given more than once.`);
  const clientId = params.get("client_id");
  if (!clientId) return refused(OAuthErrorCode.InvalidRequest, "client_id is missing.");
  let client: OAuthClientRow;
  try {
    client = await findClient(db, clientId);
  } catch (error) {
    if (error instanceof OAuthError) return { kind: "refused", error };
    throw error;
  }
  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) return refused(OAuthErrorCode.InvalidRequest, "redirect_uri is missing.");
  if (!isRegisteredRedirect(client.metadata.redirect_uris, redirectUri))
    return refused(OAuthErrorCode.InvalidRequest, "redirect_uri is not one the client registered.");

  const reply: AuthorizationReply = { redirectUri, state: params.get("state"), issuer };
  const fail = (code: OAuthErrorCode, description: string): AuthorizationCheck => {
    const error = oauthError(code, description);
    return {
      kind: "redirect",
      url: replyUrl(reply, error.toResponseObject() as Record<string, string>),
      error,
    };
  };
  if ((reply.state?.length ?? 0) > 2000)
    return fail(OAuthErrorCode.InvalidRequest, "state is longer than 2000 characters.");
  if (params.get("response_type") !== "code")
    return fail(
      OAuthErrorCode.UnsupportedResponseType,
      'response_type must be "code" (the authorization code flow).',
    );
  const challenge = params.get("code_challenge");
  if (!challenge)
    return fail(
      OAuthErrorCode.InvalidRequest,
      "PKCE is required: send code_challenge with code_challenge_method S256.",
    );
  if (params.get("code_challenge_method") !== "S256")
    return fail(OAuthErrorCode.InvalidRequest, "code_challenge_method must be S256; plain is not accepted.");
  if (!CODE_CHALLENGE.test(challenge))
    return fail(
      OAuthErrorCode.InvalidRequest,
      "code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.",
    );
  const resources = params.getAll("resource");
  if (resources.length > 1)
    return fail(OAuthErrorCode.InvalidTarget, "Name one resource: a token is for one MCP endpoint.");
  const endpoint: Endpoint | undefined = resources[0] ? endpointOfResource(issuer, resources[0]) : "gateway";
  if (!endpoint)
    return fail(
      OAuthErrorCode.InvalidTarget,
      `resource must be one of this server's MCP endpoints, like ${issuer}/api/mcp.`,
    );
  const scope = params.get("scope");
  if ((scope?.length ?? 0) > 2000)
    return fail(OAuthErrorCode.InvalidScope, "scope is longer than 2000 characters.");
  const unknown = unknownScopes(scope);
  if (unknown.length)
    return fail(
      OAuthErrorCode.InvalidScope,
      `Unknown scope ${unknown.slice(0, 3).join(", ")}: use knowledge, integrations, integration:<slug>, capabilities or capability:<tool>.`,
    );

  const requestId = newRequestId();
  await db.insert(oauthAuthorizationRequests).values({
    id: requestId,
    clientId: client.id,
    redirectUri,
    codeChallenge: challenge,
    state: reply.state,
    resource: endpoint,
    scope,
    expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
  });
  await db.delete(oauthAuthorizationRequests).where(lt(oauthAuthorizationRequests.expiresAt, sql`now()`));
  return { kind: "pending", requestId };
}

export type PendingAuthorization = typeof oauthAuthorizationRequests.$inferSelect & {
  resource: Endpoint;
  client: OAuthClientRow;
};

/** A request waiting for consent, with its client, unless it expired or was answered. */
export async function findPendingAuthorization(
  db: Database,
  requestId: string,
): Promise<PendingAuthorization | undefined> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(requestId)) return undefined;
  const [row] = await db
    .select({ request: oauthAuthorizationRequests, client: oauthClients })
    .from(oauthAuthorizationRequests)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthAuthorizationRequests.clientId))
    .where(
      and(eq(oauthAuthorizationRequests.id, requestId), gt(oauthAuthorizationRequests.expiresAt, sql`now()`)),
    );
  return row ? { ...row.request, resource: row.request.resource as Endpoint, client: row.client } : undefined;
}

/** Takes a pending request out, so it is answered once; false when another answer took it first. */
export async function takePendingAuthorization(db: Database, requestId: string): Promise<boolean> {
  const taken = await db
    .delete(oauthAuthorizationRequests)
    .where(eq(oauthAuthorizationRequests.id, requestId))
    .returning({ id: oauthAuthorizationRequests.id });
  return taken.length > 0;
}
