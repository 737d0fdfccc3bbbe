import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { AppError } from "@/lib/errors";
import { requireApiKey } from "@/lib/http/api-key-context";
import { trustedOrigin } from "@/lib/http/app-origin";
import { addToRequestLog } from "@/lib/http/request-scope";
import { countMcpRequest } from "@/lib/metrics/record";
import { type VerifiedToken, verifyAccessToken } from "@/lib/oauth-server/access-tokens";
import { type Endpoint, isEndpoint, resourceMetadataUrl } from "@/lib/oauth-server/resources";
import { scopesSupported } from "@/lib/oauth-server/scopes";
import { orgCatalog } from "@/lib/tools/catalog-cache";
import { allows } from "@/lib/tools/scope";
import { inSpan } from "@/lib/tracing/tracer";
import {
  callerLogFields,
  callerOfApiKey,
  callerSpanAttributes,
  chargeCaller,
  type GatewayCaller,
} from "./caller";
import { jsonRpcError } from "./json-rpc-error";

// The app's own API keys (lib/api-keys): anything else in a bearer header is taken for an OAuth access token.
const API_KEY = /^sb_[A-Za-z0-9]{8}_/;

/** What the endpoint's challenges say: where its protected resource metadata is, and the scopes to ask for. */
interface Challenge {
  resourceMetadataUrl: string;
  scopes: string[];
}

function challengeOf(request: Request, endpoint: string): Challenge {
  const known: Endpoint = isEndpoint(endpoint) ? endpoint : "gateway";
  const origin = trustedOrigin(request.headers);
  return { resourceMetadataUrl: resourceMetadataUrl(origin, known), scopes: scopesSupported(known) };
}

/** A 401 or 403 challenge (RFC 6750 §3, built by the MCP SDK), with a JSON-RPC error body that says what is wrong. */
function challenged(error: OAuthError, challenge: Challenge, scopes = challenge.scopes): Response {
  const sdk = bearerAuthChallengeResponse(error, {
    requiredScopes: scopes,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
  });
  const header = sdk.headers.get("www-authenticate");
  return jsonRpcError(sdk.status, -32001, error.message, header ? { "WWW-Authenticate": header } : {});
}

/** No credentials at all: the challenge names no error (RFC 6750 §3.1), only where to start OAuth. */
function credentialsMissing(challenge: Challenge): Response {
  const scope = challenge.scopes.length ? `, scope="${challenge.scopes.join(" ")}"` : "";
  return jsonRpcError(
    401,
    -32001,
    "Authorization required: sign in through OAuth (the resource_metadata of the WWW-Authenticate header says where), or send an API key as `Authorization: Bearer <key>`.",
    { "WWW-Authenticate": `Bearer resource_metadata="${challenge.resourceMetadataUrl}"${scope}` },
  );
}

/** A refusal the gate's own checks threw (a rate limit): its status and headers, with a JSON-RPC error body. */
export function appErrorRefusal(error: unknown, note = ""): Response {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  return jsonRpcError(error.status, -32001, `${error.message}${note}`, { ...error.details?.headers });
}

/**
 * Who calls an MCP endpoint, or the answer that refuses them: an API key exactly as before, or an OAuth access
 * token issued for this very endpoint (RFC 8707), verified through the MCP SDK's bearer check. A request without
 * credentials, or with an invalid or expired one, gets 401 with `WWW-Authenticate: Bearer resource_metadata=…`; a
 * token whose grant does not reach the integration passed through gets 403 insufficient_scope naming the scope to
 * ask for. Either way the caller is held to its rate limit here, the first request of a batch included.
 */
export async function authenticateCaller(
  db: Database,
  request: Request,
  endpoint: string,
): Promise<GatewayCaller | Response> {
  // Built only for a refusal: a request let in never needs the origin or the metadata's address.
  const challenge = () => challengeOf(request, endpoint);
  const authorization = request.headers.get("authorization");
  if (!authorization?.trim()) return credentialsMissing(challenge());
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const endpointKind = endpoint === "gateway" ? "gateway" : "integration";
  if (token && API_KEY.test(token)) {
    try {
      const caller = callerOfApiKey(await requireApiKey(request));
      countMcpRequest(endpointKind, "api-key");
      return caller;
    } catch (error) {
      if (error instanceof AppError && error.status === 401)
        return challenged(new OAuthError(OAuthErrorCode.InvalidToken, error.message), challenge());
      return appErrorRefusal(error);
    }
  }
  return inSpan("auth oauth", {}, async (span) => {
    let verified: VerifiedToken;
    try {
      verified = await verifiedToken(db, authorization, endpoint);
    } catch (error) {
      if (error instanceof OAuthError) return challenged(error, challenge());
      throw error;
    }
    const caller = callerOfToken(verified);
    if (span.isRecording()) span.setAttributes(callerSpanAttributes(caller));
    addToRequestLog(callerLogFields(caller));
    const needed = await scopeNeeded(db, caller, endpoint);
    if (needed)
      return challenged(
        new OAuthError(
          OAuthErrorCode.InsufficientScope,
          `This authorization does not include the integration "${needed.slice("integration:".length)}": authorize again with scope ${needed}.`,
        ),
        challenge(),
        [needed],
      );
    try {
      await chargeCaller(db, caller, 1);
    } catch (error) {
      return appErrorRefusal(error);
    }
    countMcpRequest(endpointKind, "oauth");
    return caller;
  });
}

/** The access token in the header, verified by the MCP SDK's bearer check with our verifier (which sets expiry). */
async function verifiedToken(db: Database, authorization: string, endpoint: string): Promise<VerifiedToken> {
  if (!isEndpoint(endpoint))
    throw new OAuthError(OAuthErrorCode.InvalidToken, "No access token is issued for this address.");
  const info = await verifyBearerToken(authorization, {
    verifier: {
      verifyAccessToken: async (presented): Promise<AuthInfo> => {
        const found = await verifyAccessToken(db, presented, endpoint);
        return {
          token: presented,
          clientId: found.clientId,
          scopes: [],
          expiresAt: found.expiresAt,
          extra: { found },
        };
      },
    },
  });
  return info.extra?.found as VerifiedToken;
}

/** A token's grant as a caller: its person, in the organization they chose, through its client, as a member. */
function callerOfToken(token: VerifiedToken): GatewayCaller {
  return {
    userId: token.userId,
    oauthClientId: token.clientId,
    orgId: token.orgId,
    role: "member",
    isSuperadmin: false,
    credential: {
      kind: "oauth-grant",
      id: token.grantId,
      clientId: token.clientId,
      clientName: token.clientName,
    },
    metaToolsOnly: token.metaToolsOnly,
    toolScope: token.toolScope,
  };
}

/**
 * The scope a grant lacks for an integration's own endpoint (step-up: the client may authorize again for it), or
 * undefined. An integration that does not exist or is disabled is left to the endpoint, which answers 404.
 */
async function scopeNeeded(
  db: Database,
  caller: GatewayCaller,
  endpoint: string,
): Promise<string | undefined> {
  if (!endpoint.startsWith("integrations/")) return undefined;
  const slug = endpoint.slice("integrations/".length);
  const integration = (await orgCatalog(db, caller.orgId)).integrations.find((row) => row.slug === slug);
  if (!integration || allows(caller.toolScope.integrationIds, integration.id)) return undefined;
  return `integration:${slug}`;
}
