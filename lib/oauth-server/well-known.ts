import { trustedOrigin } from "@/lib/http/app-origin";
import { metadataAnswer, metadataOptions } from "./metadata";
import { oauthJson } from "./oauth-response";
import { endpointOfPath, resourceMetadataUrl } from "./resources";

/** What the app answers for a /.well-known path it does not serve: JSON, never the HTML not-found page. */
export function wellKnownNotFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return oauthJson({ error: "not_found", error_description: `Nothing is published at ${pathname}.` }, 404);
}

/**
 * Protected Resource Metadata (RFC 9728) at the well-known path derived from an MCP endpoint's URL
 * (`/.well-known/oauth-protected-resource/api/mcp`, `…/api/mcp/integrations/<slug>`), and the aggregated
 * endpoint's at the bare path for clients that look only there.
 */
export function protectedResourceAnswer(request: Request, path: readonly string[]): Response {
  const issuer = trustedOrigin(request.headers);
  const endpoint = path.length === 0 ? "gateway" : endpointOfPath(`/${path.join("/")}`);
  if (!endpoint) return wellKnownNotFound(request);
  const at = new URL(resourceMetadataUrl(issuer, endpoint)).pathname;
  return metadataAnswer(request, at, metadataOptions(issuer, endpoint)) ?? wellKnownNotFound(request);
}

/**
 * Authorization Server Metadata (RFC 8414), at its well-known path and OpenID Connect discovery's. The issuer has
 * no path, so the path-inserted forms (…/oauth-authorization-server/<path>) name no issuer here.
 */
export function authorizationServerAnswer(request: Request, path: readonly string[]): Response {
  if (path.length > 0) return wellKnownNotFound(request);
  const issuer = trustedOrigin(request.headers);
  return (
    metadataAnswer(request, "/.well-known/oauth-authorization-server", metadataOptions(issuer, "gateway")) ??
    wellKnownNotFound(request)
  );
}
