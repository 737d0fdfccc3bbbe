import type { Database } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { enforceRateLimit } from "@/lib/api-keys/rate-limit";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import type { ToolScope } from "@/lib/tools/scope";

/** What an MCP endpoint was called with: an API key, or a person's OAuth grant to a client. */
export type Credential =
  | { kind: "api-key"; id: string }
  | { kind: "oauth-grant"; id: string; clientId: string; clientName: string };

/**
 * Who calls an MCP endpoint and what they may use, as the gateway's gate (`authorize` in serve-mcp.ts) found it:
 * the one context every later step receives. A key acts for its organization; a grant acts as its person in the
 * organization they chose, through its client, within the scope they granted. The steps after the gate read it
 * through the helpers below, never a credential's id directly.
 */
export type GatewayCaller = RequestContext & {
  credential: Credential;
  metaToolsOnly: boolean;
  toolScope: ToolScope;
};

/** An API key's context as a caller. */
export function callerOfApiKey(ctx: ApiKeyContext): GatewayCaller {
  return { ...ctx, credential: { kind: "api-key", id: ctx.apiKeyId } };
}

/** Who owns a session the caller opens, and may use it later: the key, or the grant. */
export function sessionOwnerOf(caller: GatewayCaller): {
  apiKeyId: string | null;
  oauthGrantId: string | null;
} {
  const { credential } = caller;
  return credential.kind === "api-key"
    ? { apiKeyId: credential.id, oauthGrantId: null }
    : { apiKeyId: null, oauthGrantId: credential.id };
}

/** The caller's rate-limit bucket: one per key, one per grant (so each authorized client has its own). */
export function rateLimitBucketOf(caller: GatewayCaller): string {
  return `${caller.credential.kind}:${caller.credential.id}`;
}

/** Counts requests against the caller's per-minute limit, throwing a RateLimitedError (429) once it is passed. */
export function chargeCaller(db: Database, caller: GatewayCaller, requests: number): Promise<void> {
  return enforceRateLimit(
    db,
    rateLimitBucketOf(caller),
    getEnv().API_RATE_LIMIT_PER_MINUTE,
    new Date(),
    requests,
  );
}

/** What logs say of the caller: ids only. */
export function callerLogFields(caller: GatewayCaller): Record<string, string> {
  const { credential } = caller;
  return credential.kind === "api-key"
    ? { orgId: caller.orgId, apiKeyId: credential.id }
    : { orgId: caller.orgId, oauthGrantId: credential.id, oauthClientId: credential.clientId };
}

/** What traces say of the caller: the kind of credential and, for a grant, the client's id and name. */
export function callerSpanAttributes(caller: GatewayCaller): Record<string, string> {
  const { credential } = caller;
  return {
    "switchboard.organization.id": caller.orgId,
    "switchboard.credential": credential.kind,
    ...(credential.kind === "oauth-grant"
      ? {
          "switchboard.oauth.client.id": credential.clientId,
          "switchboard.oauth.client.name": credential.clientName,
        }
      : {}),
  };
}
