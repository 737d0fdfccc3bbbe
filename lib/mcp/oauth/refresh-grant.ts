import { type OAuthDiscoveryState, refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  InvalidClientError,
  InvalidGrantError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import { tokenSetFrom } from "./token-set";
import type { RefreshGrant } from "./token-source";

/** The refresh-token grant against the authorization server the connection was made with. */
export function refreshGrant(
  discovery: OAuthDiscoveryState,
  clientInformation: OAuthClientInformationMixed,
  fetchFn: typeof fetch,
): RefreshGrant {
  return async (refreshToken, previous) => {
    const tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
      metadata: discovery.authorizationServerMetadata,
      clientInformation,
      refreshToken,
      // The same indicator the authorization used: the resource metadata's, verbatim.
      resource: discovery.resourceMetadata?.resource,
      fetchFn,
    });
    return tokenSetFrom(tokens, previous);
  };
}

/** The authorization server refused the grant or the client for good: only connecting again helps. */
export function isRevocation(error: unknown): boolean {
  return (
    error instanceof InvalidGrantError ||
    error instanceof InvalidClientError ||
    error instanceof UnauthorizedClientError
  );
}
