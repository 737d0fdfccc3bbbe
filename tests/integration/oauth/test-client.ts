import { createHash, randomBytes } from "node:crypto";
import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { approveAuthorization, type ConsentChoice } from "@/lib/oauth-server/consent";
import { APP, appFetch, postForm } from "./app-fetch";

export { MemoryOAuthProvider } from "../../fixtures/oauth/memory-provider";

export const REDIRECT_URI = "http://127.0.0.1:33418/callback";

/**
 * What the browser does with an authorization URL: the authorization endpoint checks it and sends the person to
 * the consent page, where they choose (here through the same function the page's action calls); the answer is
 * where they are sent back, with the code (or an error) in its query.
 */
export async function consentTo(
  db: Database,
  person: UserContext,
  authorizationUrl: URL | string,
  choice: Partial<ConsentChoice> = {},
): Promise<URL> {
  const answer = await appFetch(authorizationUrl.toString(), { redirect: "manual" });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location)
    throw new Error(`authorize answered ${answer.status}: ${await answer.text()}`);
  const consent = new URL(location, APP);
  if (consent.pathname !== "/oauth/consent") return consent;
  const requestId = consent.searchParams.get("request") ?? "";
  return new URL(
    await approveAuthorization(
      db,
      person,
      requestId,
      { orgId: person.orgId, scope: null, metaToolsOnly: false, ...choice },
      APP,
    ),
  );
}

/** PKCE's verifier and S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

let registrations = 0;

/** Registers a public client directly (RFC 7591), answering its client_id. */
export async function registerPublicClient(metadata: Partial<OAuthClientMetadata> = {}): Promise<string> {
  const answer = await appFetch(`${APP}/oauth/register`, {
    method: "POST",
    // An address of its own, so the registrations of a test file never meet the per-address limit.
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${registrations++ % 250}` },
    body: JSON.stringify({
      client_name: "Direct client",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
      ...metadata,
    }),
  });
  const body = (await answer.json()) as { client_id?: string };
  if (answer.status !== 201 || !body.client_id) throw new Error(`register answered ${answer.status}`);
  return body.client_id;
}

/** An authorization URL for a client, as a spec-following client builds one. */
export function authorizationUrl(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
): URL {
  const url = new URL(`${APP}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-123",
    resource: `${APP}/api/mcp`,
    ...extra,
  }))
    url.searchParams.set(name, value);
  return url;
}

/** Authorizes a freshly registered client for a person and exchanges the code: its tokens and client_id. */
export async function tokensFor(
  db: Database,
  person: UserContext,
  { resource = `${APP}/api/mcp`, choice = {} }: { resource?: string; choice?: Partial<ConsentChoice> } = {},
): Promise<{ clientId: string; access: string; refresh: string }> {
  const clientId = await registerPublicClient();
  const { verifier, challenge } = pkce();
  const back = await consentTo(db, person, authorizationUrl(clientId, challenge, { resource }), choice);
  const code = back.searchParams.get("code") ?? "";
  const answer = await postForm("/oauth/token", {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: clientId,
    resource,
  });
  const tokens = (await answer.json()) as { access_token: string; refresh_token: string };
  if (answer.status !== 200) throw new Error(`token answered ${answer.status}: ${JSON.stringify(tokens)}`);
  return { clientId, access: tokens.access_token, refresh: tokens.refresh_token };
}
