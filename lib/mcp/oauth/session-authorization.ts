import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { createGuardedFetch } from "../client/network-guard";
import { McpOAuthFailedError, McpOAuthNotConnectedError, McpOAuthReconnectError } from "../errors";
import type { CatalogIntegration } from "../repository";
import type { McpOAuthConnection } from "../types";
import { withOAuthBearer } from "./bearer-fetch";
import { oauthFailureReason } from "./failure-reason";
import { discoveryOf, oauthClientOf } from "./integration-client";
import { isRevocation, refreshGrant } from "./refresh-grant";
import { type CredentialOwner, storedTokenVault } from "./stored-credentials";
import { OAuthTokenSource, type RefreshGrant } from "./token-source";

/** A fetch to the authorization server: guarded like the MCP server's, and never waiting past the timeout. */
export function authorizationServerFetch(timeoutMs: number): typeof fetch {
  const guarded = createGuardedFetch(getEnv().MCP_ALLOW_PRIVATE_NETWORKS);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await guarded(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The SDK reads OAuth error bodies only from the platform's own Response class.
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof fetch;
}

/** Whose tokens a caller uses: the organization's, or, for "each user connects", the signed-in user's own. */
export function credentialOwnerFor(
  integration: CatalogIntegration,
  ctx: RequestContext | null | undefined,
): CredentialOwner & { personal: boolean } {
  const personal = integration.oauth?.credentials === "user";
  return {
    organizationId: integration.organizationId,
    integrationId: integration.id,
    userId: personal ? (ctx?.userId ?? null) : null,
    personal,
  };
}

/** How sessions of an OAuth integration authorize for this caller: their tokens, renewed as needed. */
export function integrationOAuthConnection(
  db: Database,
  integration: CatalogIntegration,
  ctx: RequestContext | null | undefined,
): McpOAuthConnection {
  const owner = credentialOwnerFor(integration, ctx);
  const { id, name } = integration;
  const notConnected = () =>
    new McpOAuthNotConnectedError(
      id,
      name,
      owner.personal ? (owner.userId ? "user" : "api-key") : "organization",
    );
  // An API key has no user, so a per-user integration has no tokens to offer it.
  if (owner.personal && !owner.userId) {
    return {
      owner: "no-user",
      authorize: () => async () => {
        throw notConnected();
      },
    };
  }
  const fetchFn = authorizationServerFetch(integration.timeoutMs);
  const grant: RefreshGrant = async (refreshToken, previous) => {
    const discovery = discoveryOf(integration);
    const client = oauthClientOf(integration);
    if (!discovery || !client) throw new McpOAuthReconnectError(id, `${name} needs to be connected again.`);
    try {
      return await refreshGrant(discovery, client, fetchFn)(refreshToken, previous);
    } catch (error) {
      if (isRevocation(error)) throw error;
      throw new McpOAuthFailedError(
        id,
        `Could not renew the access token for ${name}: ${oauthFailureReason(error)}`,
        error,
      );
    }
  };
  const tokens = new OAuthTokenSource(storedTokenVault(db, owner, name), grant, {
    notConnected,
    reconnect: (reason) =>
      new McpOAuthReconnectError(
        id,
        owner.personal
          ? `Your ${name} account needs to be connected again: ${reason}.`
          : `${name} needs to be connected again: ${reason}.`,
      ),
    isRevocation,
  });
  return { owner: owner.userId ?? "organization", authorize: (fetch) => withOAuthBearer(fetch, tokens) };
}
