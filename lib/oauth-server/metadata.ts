import {
  type AuthMetadataOptions,
  type OAuthMetadata,
  oauthMetadataResponse,
} from "@modelcontextprotocol/server";
import { getEnv } from "@/lib/env";
import { type Endpoint, resourceUrl } from "./resources";
import { scopesSupported } from "./scopes";

/** The authorization server's endpoints on the app. */
export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
} as const;

/**
 * Authorization Server Metadata (RFC 8414), served at /.well-known/oauth-authorization-server and as OpenID
 * discovery: the code flow with PKCE S256 only, refresh tokens, revocation, dynamic registration (unless turned
 * off), Client ID Metadata Documents, and `iss` in authorization responses (RFC 9207). The issuer is the app's
 * trusted origin.
 */
export function authorizationServerMetadata(issuer: string): OAuthMetadata {
  const register = getEnv().OAUTH_DYNAMIC_REGISTRATION;
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    ...(register ? { registration_endpoint: `${issuer}${OAUTH_PATHS.register}` } : {}),
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    scopes_supported: ["knowledge", "integrations", "capabilities", "offline_access"],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/connect`,
  };
}

/**
 * What the MCP SDK needs to serve an endpoint's Protected Resource Metadata (RFC 9728) and mirror the server's
 * own: the endpoint's resource URL, this app as its authorization server, and the scopes a client asks for when
 * nothing narrower is needed.
 */
export function metadataOptions(issuer: string, endpoint: Endpoint): AuthMetadataOptions {
  return {
    oauthMetadata: authorizationServerMetadata(issuer),
    resourceServerUrl: new URL(resourceUrl(issuer, endpoint)),
    scopesSupported: scopesSupported(endpoint),
    resourceName:
      endpoint === "gateway" ? "Switchboard" : `Switchboard: ${endpoint.slice("integrations/".length)}`,
    serviceDocumentationUrl: new URL(`${issuer}/connect`),
    // The SDK refuses a plain-http issuer except on localhost; here AUTH_URL decides, as for every other address.
    dangerouslyAllowInsecureIssuerUrl: true,
  };
}

/**
 * A metadata document's answer, by the MCP SDK (JSON with open CORS, 405 for other methods, 204 to a preflight), for
 * a request at `path`: the request is read as if made there, so one document can answer under several names.
 */
export function metadataAnswer(
  request: Request,
  path: string,
  options: AuthMetadataOptions,
): Response | undefined {
  const at = new Request(new URL(path, request.url), { method: request.method, headers: request.headers });
  const answer = oauthMetadataResponse(at, options);
  answer?.headers.set("Cache-Control", "no-transform");
  return answer;
}
