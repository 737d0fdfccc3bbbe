import {
  discoverOAuthServerInfo,
  IssuerMismatchError,
  validateAuthorizationResponseIssuer,
} from "@modelcontextprotocol/client";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";

/** An issuer check that failed: the flow stops here, before anything is sent to the server it would trust. */
export class IssuerRefusedError extends Error {
  override readonly name = "IssuerRefusedError";
}

// The received value is the attacker's in a mix-up: the message names only the issuer we expected.
function refusal(error: IssuerMismatchError): IssuerRefusedError {
  const expected = error.expected ?? "the authorization server";
  if (error.kind === "metadata") {
    return new IssuerRefusedError(
      `The authorization server metadata found for ${expected} names another issuer; it was not used.`,
    );
  }
  return new IssuerRefusedError(
    error.received === undefined
      ? `The authorization response did not name its issuer (iss), which ${expected} says it always does; it was refused.`
      : `The authorization response names an issuer (iss) other than ${expected}; it was refused.`,
  );
}

function refusingMismatches<T>(run: () => Promise<T>): Promise<T> {
  return run().catch((error: unknown) => {
    throw IssuerMismatchError.isInstance(error) ? refusal(error) : error;
  });
}

/**
 * Discovers the protected resource's authorization server afresh (so a server that moved is seen at once), with
 * the metadata's `issuer` checked against the address it was fetched for (RFC 8414 §3.3, by the v2 SDK).
 */
export function discoverCheckedIssuer(
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
  fetchFn: typeof fetch,
): Promise<OAuthDiscoveryState> {
  return refusingMismatches(async () => {
    const info = await discoverOAuthServerInfo(serverUrl, { resourceMetadataUrl, fetchFn });
    return {
      authorizationServerUrl: info.authorizationServerUrl,
      resourceMetadataUrl: resourceMetadataUrl?.href,
      resourceMetadata: info.resourceMetadata,
      // The same document the 1.x SDK parses; only the schema object differs.
      authorizationServerMetadata: info.authorizationServerMetadata as OAuthMetadata | undefined,
    };
  });
}

/**
 * Checks the authorization response's `iss` (RFC 9207, by the v2 SDK) against the issuer discovered when the
 * authorization started: a present `iss` must equal it exactly, and a server that advertises
 * `authorization_response_iss_parameter_supported` must send it.
 */
export async function checkResponseIssuer(
  discovery: OAuthDiscoveryState | undefined,
  iss: string | undefined,
): Promise<void> {
  const metadata = discovery?.authorizationServerMetadata;
  await refusingMismatches(async () =>
    validateAuthorizationResponseIssuer({
      iss,
      expectedIssuer: metadata?.issuer,
      issParameterSupported:
        (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
          ?.authorization_response_iss_parameter_supported === true,
    }),
  );
}
