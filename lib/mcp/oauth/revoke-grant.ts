import { type OAuthDiscoveryState, selectClientAuthMethod } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import type { OAuthTokenSet } from "./token-set";

// OpenID-style metadata has no revocation fields in the SDK's types; read them from whatever was discovered.
const revocationMetadata = z.object({
  revocation_endpoint: z.url().optional(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

/**
 * Asks the authorization server to revoke a connection's tokens (RFC 7009), the refresh token first, which
 * ends the grant. Returns false when the server offers no revocation endpoint; throws when it refuses.
 */
export async function revokeGrant(
  discovery: OAuthDiscoveryState,
  client: OAuthClientInformationMixed,
  tokens: OAuthTokenSet,
  fetchFn: typeof fetch,
): Promise<boolean> {
  const parsed = revocationMetadata.safeParse(discovery.authorizationServerMetadata ?? {});
  const metadata = parsed.success ? parsed.data : {};
  const endpoint = metadata.revocation_endpoint;
  if (!endpoint) return false;
  const method = selectClientAuthMethod(
    client,
    metadata.revocation_endpoint_auth_methods_supported ??
      metadata.token_endpoint_auth_methods_supported ??
      [],
  );
  const revocations: [string, string][] = [
    ...(tokens.refreshToken ? [[tokens.refreshToken, "refresh_token"] as [string, string]] : []),
    [tokens.accessToken, "access_token"],
  ];
  for (const [token, hint] of revocations) {
    const params = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    if (method === "client_secret_basic" && client.client_secret) {
      // RFC 6749 2.3.1: each part form-encoded, then Basic.
      const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
      headers.set("authorization", `Basic ${Buffer.from(pair).toString("base64")}`);
    } else {
      params.set("client_id", client.client_id);
      if (method === "client_secret_post" && client.client_secret)
        params.set("client_secret", client.client_secret);
    }
    const response = await fetchFn(endpoint, { method: "POST", headers, body: params });
    await response.body?.cancel().catch(() => {});
    if (!response.ok) throw new Error(`the revocation endpoint answered HTTP ${response.status}`);
  }
  return true;
}
