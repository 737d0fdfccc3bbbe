import { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import packageJson from "@/package.json" with { type: "json" };
import { checkResponseIssuer, discoverCheckedIssuer } from "./issuer-checks";
import type { ConnectOAuthProvider } from "./sdk-auth-provider";

/** A server's demand for (more) authorization: where its protected-resource metadata is, which scopes it wants. */
export interface AuthChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** The challenge in a 401, or in a 403 for a token without enough scope; undefined for any other answer. */
export function challengeOf(response: Response): AuthChallenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  if (response.status === 403 && error !== "insufficient_scope") return undefined;
  return { resourceMetadataUrl, scope };
}

/**
 * Asks the server to initialize without credentials, as a client would, to read its `WWW-Authenticate` challenge:
 * where its protected-resource metadata is and which scopes it wants.
 */
export async function probeAuthChallenge(
  serverUrl: string,
  fetchFn: typeof fetch,
): Promise<AuthChallenge | undefined> {
  const response = await fetchFn(serverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "switchboard", version: packageJson.version },
      },
    }),
  });
  await response.body?.cancel().catch(() => {});
  return response.status === 401 ? challengeOf(response) : undefined;
}

/**
 * Starts an authorization: discovery (from the challenge, the well-known URLs and their older fallbacks) with the
 * metadata's issuer checked, then by the SDK dynamic registration unless the client is pre-registered (again when
 * the authorization server changed, the registration being bound to the issuer), PKCE and the `resource`
 * parameter. Returns the URL to send the user to.
 */
export async function beginAuthorization(
  provider: ConnectOAuthProvider,
  serverUrl: string,
  challenge: AuthChallenge,
  fetchFn: typeof fetch,
): Promise<URL> {
  // The SDK's auth() goes on from this discovery instead of its own, which does not check the issuer.
  await provider.saveDiscoveryState(
    await discoverCheckedIssuer(serverUrl, challenge.resourceMetadataUrl, fetchFn),
  );
  const result = await auth(provider, {
    serverUrl,
    scope: challenge.scope,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    fetchFn,
  });
  if (result !== "REDIRECT" || !provider.authorizationUrl)
    throw new Error("The authorization server did not start an authorization.");
  return provider.authorizationUrl;
}

/** What the authorization server sent back with the browser: the code, and the issuer it names (RFC 9207). */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

/**
 * Exchanges the code the authorization server sent back, once the response's issuer is checked against the one
 * discovered when the authorization started; the provider's store receives the tokens.
 */
export async function completeAuthorization(
  provider: ConnectOAuthProvider,
  serverUrl: string,
  response: AuthorizationResponse,
  fetchFn: typeof fetch,
): Promise<void> {
  await checkResponseIssuer(await provider.discoveryState(), response.iss);
  const result = await auth(provider, { serverUrl, authorizationCode: response.code, fetchFn });
  if (result !== "AUTHORIZED") throw new Error("The authorization server did not issue tokens.");
}
