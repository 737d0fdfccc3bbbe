import { eq } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { oauthGrants, oauthTokens } from "@/db/schema";
import { authenticateClient } from "./clients";
import { endGrant, GRANTS_CHANNEL } from "./grants";
import { OAuthErrorCode, oauthError } from "./oauth-response";
import { hashSecret } from "./secrets";

/**
 * Token revocation (RFC 7009): a refresh token ends its whole grant (the client is disconnecting); an access token
 * ends itself. A token that is unknown, or not the client's, is answered as revoked: nothing to tell the client.
 */
export async function revokeToken(
  db: Database,
  form: URLSearchParams,
  { authorization }: { authorization: string | null },
): Promise<void> {
  if (form.getAll("token").length > 1)
    throw oauthError(OAuthErrorCode.InvalidRequest, "token is given more than once.");
  const token = form.get("token");
  if (!token) throw oauthError(OAuthErrorCode.InvalidRequest, "token is missing.");
  const client = await authenticateClient(db, form, authorization);
  const tokenHash = hashSecret(token);
  const [row] = await db
    .select({ kind: oauthTokens.kind, grantId: oauthTokens.grantId, clientId: oauthGrants.clientId })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.tokenHash, tokenHash));
  if (!row || row.clientId !== client.id) return;
  if (row.kind === "refresh") {
    await endGrant(db, row.grantId, "revoked by the client");
    return;
  }
  await db.transaction(async (tx) => {
    await tx.delete(oauthTokens).where(eq(oauthTokens.tokenHash, tokenHash));
    await publishChange(db, GRANTS_CHANNEL, row.grantId, tx);
  });
}
