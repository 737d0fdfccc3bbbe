import { randomBytes } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Database } from "@/db/client";
import { mcpOAuthFlows } from "@/db/schema";
import { type RequestContext, requireUser } from "@/lib/auth/context";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { getMcpClient } from "../client/shared-client";
import { McpOAuthFailedError } from "../errors";
import type { McpIntegration } from "../repository";
import { mcpUseCases } from "../use-cases";
import { beginAuthorization, completeAuthorization, probeAuthChallenge } from "./authorization";
import { oauthFailureReason } from "./failure-reason";
import { preRegisteredClientOf } from "./integration-client";
import { auditOAuthChange, loadOAuthIntegration, ownerFor } from "./oauth-access";
import { integrationConnectStore } from "./provider-store";
import { ConnectOAuthProvider } from "./sdk-auth-provider";
import { authorizationServerFetch } from "./session-authorization";

// Long enough for a consent page and a login, short enough that a stolen link soon stops working.
const FLOW_TTL_MS = 15 * 60_000;

function describeFailure(integration: McpIntegration, step: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const reason = oauthFailureReason(error);
  logger.warn("oauthConnectFailed", { integrationId: integration.id, step, message: reason });
  return new McpOAuthFailedError(integration.id, `Could not ${step} ${integration.name}: ${reason}`, error);
}

/**
 * Starts connecting an OAuth integration (the organization's connection, or the caller's own account): discovers
 * the authorization server, registers unless a client is configured, and returns the consent page's address. The
 * flow's state and PKCE verifier wait in the database for the callback.
 */
export async function startOAuthConnection(
  db: Database,
  ctx: RequestContext,
  integrationId: string,
  options: { personal: boolean; redirectUrl: string },
): Promise<{ authorizationUrl: string }> {
  const integration = await loadOAuthIntegration(db, ctx, integrationId);
  const owner = ownerFor(integration, ctx, options.personal);
  const user = requireUser(ctx);
  const state = randomBytes(32).toString("base64url");
  const provider = new ConnectOAuthProvider({
    redirectUrl: options.redirectUrl,
    state,
    scope: integration.oauth?.scope,
    store: integrationConnectStore(db, integration, owner, user.userId),
    client: preRegisteredClientOf(integration),
  });
  const fetchFn = authorizationServerFetch(integration.timeoutMs);
  const url = integration.url as string;
  let authorizationUrl: URL;
  try {
    const challenge = (await probeAuthChallenge(url, fetchFn)) ?? {};
    authorizationUrl = await beginAuthorization(provider, url, challenge, fetchFn);
  } catch (error) {
    throw describeFailure(integration, "start the authorization with", error);
  }
  await db.delete(mcpOAuthFlows).where(lt(mcpOAuthFlows.createdAt, new Date(Date.now() - FLOW_TTL_MS)));
  await db.insert(mcpOAuthFlows).values({
    state,
    organizationId: integration.organizationId,
    integrationId: integration.id,
    userId: user.userId,
    personal: options.personal,
    codeVerifierEncrypted: encryptSecret(provider.codeVerifier()),
    redirectUrl: options.redirectUrl,
  });
  return { authorizationUrl: authorizationUrl.href };
}

/** A callback that cannot finish a flow; `outcome` is what the page tells the user. */
export class OAuthFlowError extends AppError {
  constructor(
    readonly outcome: "expired" | "forbidden" | "denied",
    message: string,
  ) {
    super(outcome === "forbidden" ? "forbidden:oauth_flow" : "bad_request:oauth_flow", message);
  }
}

/** Deletes the integration's consents still pending. */
export async function deletePendingFlows(db: Database, integrationId: string): Promise<void> {
  await db.delete(mcpOAuthFlows).where(eq(mcpOAuthFlows.integrationId, integrationId));
}

/** The integration a pending flow of this user is for, so the callback can return to its page whatever happens. */
export async function pendingFlowIntegration(
  db: Database,
  ctx: RequestContext,
  state: string,
): Promise<string | undefined> {
  const [flow] = await db
    .select({ integrationId: mcpOAuthFlows.integrationId })
    .from(mcpOAuthFlows)
    .where(
      and(
        eq(mcpOAuthFlows.state, state),
        eq(mcpOAuthFlows.organizationId, ctx.orgId),
        eq(mcpOAuthFlows.userId, ctx.userId ?? ""),
      ),
    );
  return flow?.integrationId;
}

export interface OAuthCallback {
  state: string;
  code?: string;
  /** The issuer the authorization server names in its response (RFC 9207), checked before the code is used. */
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/**
 * Finishes a connection when the provider sends the browser back: only the user who started it, within the time
 * allowed, once. Exchanges the code, stores the tokens encrypted, and discovers the server's tools with them.
 */
export async function finishOAuthConnection(
  db: Database,
  ctx: RequestContext,
  callback: OAuthCallback,
): Promise<{ integrationId: string }> {
  const user = requireUser(ctx);
  // Only the user who started the flow, in the organization it was started in, consumes it: someone else
  // presenting the state (a leaked or guessed link) is refused and leaves the owner's flow usable. The owner
  // check is part of the delete itself, so two callbacks racing for one flow cannot both win.
  const [flow] = await db
    .delete(mcpOAuthFlows)
    .where(
      and(
        eq(mcpOAuthFlows.state, callback.state),
        eq(mcpOAuthFlows.userId, user.userId),
        eq(mcpOAuthFlows.organizationId, ctx.orgId),
      ),
    )
    .returning();
  if (!flow) {
    const [foreign] = await db
      .select({ state: mcpOAuthFlows.state })
      .from(mcpOAuthFlows)
      .where(eq(mcpOAuthFlows.state, callback.state));
    if (foreign) {
      throw new OAuthFlowError(
        "forbidden",
        "This authorization was started by someone else, or in another organization.",
      );
    }
  }
  if (!flow || Date.now() - flow.createdAt.getTime() > FLOW_TTL_MS) {
    throw new OAuthFlowError(
      "expired",
      "This authorization has expired or was already used. Start connecting again.",
    );
  }
  const integration = await loadOAuthIntegration(db, ctx, flow.integrationId);
  if (callback.error || !callback.code) {
    const error = callback.error ?? "no_code";
    const detail = callback.errorDescription ? ` (${callback.errorDescription})` : "";
    throw new OAuthFlowError("denied", `${integration.name} did not grant access: ${error}${detail}.`);
  }
  const owner = ownerFor(integration, ctx, flow.personal);
  const provider = new ConnectOAuthProvider({
    redirectUrl: flow.redirectUrl,
    state: flow.state,
    scope: integration.oauth?.scope,
    codeVerifier: decryptSecret(flow.codeVerifierEncrypted),
    store: integrationConnectStore(db, integration, owner, user.userId),
    client: preRegisteredClientOf(integration),
  });
  try {
    await completeAuthorization(
      provider,
      integration.url as string,
      { code: callback.code, iss: callback.iss },
      authorizationServerFetch(integration.timeoutMs),
    );
  } catch (error) {
    throw describeFailure(integration, "finish the authorization with", error);
  }
  await getMcpClient().pool.closeIntegration(integration.id);
  await auditOAuthChange(db, ctx, integration, "connect", flow.personal);
  // The tools come from the server itself; a failure here shows on the integration as usual.
  await mcpUseCases(db)
    .discover(ctx, { integrationId: integration.id })
    .catch(() => {});
  return { integrationId: integration.id };
}
