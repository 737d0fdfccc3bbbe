import type { ApiKeyScope } from "@/db/schema";
import type { Endpoint } from "./resources";

/**
 * The OAuth scopes the MCP endpoints understand, one per kind of thing a grant may reach, as an API key's scope
 * names them: `knowledge` (the built-in knowledge tools), `integrations` (all of them, including ones added later)
 * or `integration:<slug>`, `capabilities` or `capability:<tool name>`. `offline_access` is accepted and means
 * nothing more: refresh tokens are always issued.
 */
const SCOPE_TOKEN =
  /^(knowledge|integrations|capabilities|offline_access|integration:[a-z0-9][a-z0-9_-]{0,63}|capability:mcp__[A-Za-z0-9_-]{1,120})$/;

/** The names the scopes refer to, in the organization the person chooses. */
export interface OAuthScopeNames {
  integrations: readonly { id: string; slug: string }[];
  capabilities: readonly { id: string; name: string }[];
}

export const scopeTokens = (scope: string | null | undefined) =>
  (scope ?? "").split(" ").filter((token) => token !== "");

/** The requested scopes this server does not know, to refuse with invalid_scope. */
export const unknownScopes = (scope: string | null | undefined) =>
  scopeTokens(scope).filter((token) => !SCOPE_TOKEN.test(token));

/** What a client is asked to request for an endpoint when nothing narrower is needed (`scopes_supported`). */
export function scopesSupported(endpoint: Endpoint): string[] {
  return endpoint === "gateway"
    ? ["knowledge", "integrations", "capabilities"]
    : [`integration:${endpoint.slice("integrations/".length)}`];
}

/**
 * What the consent form proposes for a requested scope: no scope (or every kind) proposes everything; otherwise
 * only what was named, in the chosen organization.
 */
export function proposedScope(scope: string | null | undefined, names: OAuthScopeNames): ApiKeyScope | null {
  const tokens = new Set(scopeTokens(scope).filter((token) => token !== "offline_access"));
  if (tokens.size === 0) return null;
  const named = (prefix: string, all: string, items: readonly { id: string; key: string }[]) =>
    tokens.has(all)
      ? null
      : items.filter((item) => tokens.has(`${prefix}:${item.key}`)).map((item) => item.id);
  const integrationIds = named(
    "integration",
    "integrations",
    names.integrations.map(({ id, slug }) => ({ id, key: slug })),
  );
  const capabilityIds = named(
    "capability",
    "capabilities",
    names.capabilities.map(({ id, name }) => ({ id, key: name })),
  );
  const builtins = tokens.has("knowledge");
  if (integrationIds === null && capabilityIds === null && builtins) return null;
  return { integrationIds, capabilityIds, builtins };
}

/** The OAuth scope that describes what a grant reaches, for token responses and the consent's summary. */
export function scopeOfGrant(scope: ApiKeyScope | null, names: OAuthScopeNames): string {
  if (!scope) return "knowledge integrations capabilities";
  const part = (
    ids: string[] | null,
    all: string,
    prefix: string,
    items: readonly { id: string; key: string }[],
  ) =>
    ids === null
      ? [all]
      : items.filter((item) => ids.includes(item.id)).map((item) => `${prefix}:${item.key}`);
  return [
    ...(scope.builtins ? ["knowledge"] : []),
    ...part(
      scope.integrationIds,
      "integrations",
      "integration",
      names.integrations.map(({ id, slug }) => ({ id, key: slug })),
    ),
    ...part(
      scope.capabilityIds,
      "capabilities",
      "capability",
      names.capabilities.map(({ id, name }) => ({ id, key: name })),
    ),
  ].join(" ");
}
