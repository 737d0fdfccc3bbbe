import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";
import { getMcpClient } from "../client/shared-client";
import type { McpIntegration } from "../repository";
import { oauthFailureReason } from "./failure-reason";
import { discoveryOf, oauthClientOf } from "./integration-client";
import { auditOAuthChange, loadOAuthIntegration, ownerFor } from "./oauth-access";
import { revokeGrant } from "./revoke-grant";
import { authorizationServerFetch } from "./session-authorization";
import { type CredentialOwner, deleteCredential, findCredential, storedTokenSet } from "./stored-credentials";

/**
 * Disconnects the organization's connection (admins) or the caller's own: asks the provider to revoke the grant
 * where it offers revocation (best effort: a provider that fails does not keep the tokens here), then deletes the
 * tokens.
 */
export async function disconnectOAuth(
  db: Database,
  ctx: RequestContext,
  integrationId: string,
  options: { personal: boolean },
): Promise<{ revoked: boolean }> {
  const integration = await loadOAuthIntegration(db, ctx, integrationId);
  const owner = ownerFor(integration, ctx, options.personal);
  const revoked = await revokeStoredGrant(db, integration, owner);
  const removed = await deleteCredential(db, owner);
  await getMcpClient().pool.closeIntegration(integration.id);
  if (!removed) return { revoked };
  await auditOAuthChange(db, ctx, integration, "disconnect", options.personal);
  return { revoked };
}

async function revokeStoredGrant(db: Database, integration: McpIntegration, owner: CredentialOwner) {
  const stored = await findCredential(db, owner);
  const discovery = discoveryOf(integration);
  const client = oauthClientOf(integration);
  if (!stored || !discovery || !client) return false;
  try {
    return await revokeGrant(
      discovery,
      client,
      storedTokenSet(stored),
      authorizationServerFetch(integration.timeoutMs),
    );
  } catch (error) {
    logger.warn("oauthRevocationFailed", {
      integrationId: integration.id,
      message: oauthFailureReason(error),
    });
    return false;
  }
}
