import { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import packageJson from "@/package.json" with { type: "json" };
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
 * Starts an authorization: discovery (from the challenge, the well-known URLs and their older fallbacks), dynamic
 * registration unless the client is pre-registered, PKCE and the `resource` parameter, all by the SDK. Returns
 * the URL to send the user to.
 */
export async function beginAuthorization(
  provider: ConnectOAuthProvider,
  serverUrl: string,
  challenge: AuthChallenge,
  fetchFn: typeof fetch,
): Promise<URL> {
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

/** Exchanges the code the authorization server sent back; the provider's store receives the tokens. */
export async function completeAuthorization(
  provider: ConnectOAuthProvider,
  serverUrl: string,
  authorizationCode: string,
  fetchFn: typeof fetch,
): Promise<void> {
  const result = await auth(provider, { serverUrl, authorizationCode, fetchFn });
  if (result !== "AUTHORIZED") throw new Error("The authorization server did not issue tokens.");
}
