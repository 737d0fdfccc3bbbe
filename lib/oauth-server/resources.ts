import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";

/**
 * The MCP endpoints tokens are issued for (RFC 8707 resources), named as the gateway's sessions name them:
 * "gateway" for /api/mcp, "integrations/<slug>" for one integration passed through.
 */
export type Endpoint = "gateway" | `integrations/${string}`;

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function isEndpoint(value: string): value is Endpoint {
  if (value === "gateway") return true;
  const slug = value.startsWith("integrations/") ? value.slice("integrations/".length) : undefined;
  return slug !== undefined && SLUG.test(slug);
}

/** The path of an endpoint on the app. */
const endpointPath = (endpoint: Endpoint) => (endpoint === "gateway" ? "/api/mcp" : `/api/mcp/${endpoint}`);

/** The endpoint's canonical URL on the app's origin: the resource its tokens are for. */
export const resourceUrl = (origin: string, endpoint: Endpoint) => `${origin}${endpointPath(endpoint)}`;

/** The endpoint a path names (/api/mcp, /api/mcp/integrations/<slug>), if it names one. */
export function endpointOfPath(path: string): Endpoint | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/$/, "") : path;
  if (trimmed === "/api/mcp") return "gateway";
  const match = /^\/api\/mcp\/(integrations\/[^/]+)$/.exec(trimmed);
  return match?.[1] && isEndpoint(match[1]) ? match[1] : undefined;
}

/**
 * The endpoint a `resource` parameter names on this origin. RFC 8707 resources are absolute URIs without a
 * fragment; scheme and host are compared without case, as the MCP specification asks servers to accept.
 */
export function endpointOfResource(origin: string, resource: string): Endpoint | undefined {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return undefined;
  }
  if (url.hash || url.search || url.username || url.password || url.origin !== new URL(origin).origin)
    return undefined;
  return endpointOfPath(url.pathname);
}

/** Where the endpoint's protected resource metadata is (RFC 9728, the path-aware well-known location). */
export const resourceMetadataUrl = (origin: string, endpoint: Endpoint) =>
  getOAuthProtectedResourceMetadataUrl(new URL(resourceUrl(origin, endpoint)));
