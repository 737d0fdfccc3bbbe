import type { Database } from "@/db/client";
import { changedFields, recordAudit } from "@/lib/audit/record-audit";
import { type RequestContext, requireAdmin } from "@/lib/auth/context";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { ValidationError } from "@/lib/errors";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { parseInput } from "@/lib/validation";
import { getMcpClient } from "../client/shared-client";
import { deletePendingFlows } from "../oauth/oauth-flow";
import { deleteIntegrationCredentials } from "../oauth/stored-credentials";
import { type McpIntegrationPatch, updateIntegrationForOrg } from "../repository";
import { originChanged, requireFreshCredentials } from "./fresh-credentials";
import { integrationAuditFields, integrationAuditTarget } from "./integration-audit";
import { type UpdateIntegrationInput, updateIntegrationSchema } from "./integration-input";
import { type IntegrationView, toView } from "./integration-view";
import { loadIntegrationForOrg } from "./load-integration";
import { oauthConnectionChanged, oauthPatch } from "./oauth-settings";
import { checkServerUrl } from "./server-url";

/** Edits an integration; credentials left blank keep their stored values. */
export async function updateIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
  raw: UpdateIntegrationInput,
): Promise<IntegrationView> {
  requireAdmin(ctx);
  const input = parseInput(updateIntegrationSchema, raw);
  const row = await loadIntegrationForOrg(db, ctx, id);
  const patch: McpIntegrationPatch = { updatedAt: new Date() };
  if (input.name) patch.name = input.name;
  if (input.timeoutMs) patch.timeoutMs = input.timeoutMs;
  if (row.transport !== "stdio" && !row.presetKey) {
    if (input.url) {
      checkServerUrl(input.url);
      patch.url = input.url;
    }
    if (input.transport) patch.transport = input.transport;
    const authType = input.authType ?? row.authType;
    patch.authType = authType;
    if (authType !== "none" && originChanged(row.url, input.url))
      requireFreshCredentials(row, input, authType, new URL(input.url as string).origin);
    if (authType === "none") patch.credentialsEncrypted = {};
    if (authType === "bearer") {
      const kept = row.authType === "bearer" ? row.credentialsEncrypted.token : undefined;
      if (!input.token && !kept)
        throw new ValidationError("Enter the bearer token.", { token: ["Enter the token."] });
      patch.credentialsEncrypted = { token: input.token ? encryptSecret(input.token) : (kept as string) };
    }
    if (authType === "oauth") Object.assign(patch, oauthPatch(row, input));
    if (authType === "headers" && input.headers) {
      const previous = row.authType === "headers" ? row.credentialsEncrypted : {};
      patch.credentialsEncrypted = Object.fromEntries(
        Object.entries(input.headers).flatMap(([name, value]) =>
          value ? [[name, encryptSecret(value)]] : previous[name] ? [[name, previous[name]]] : [],
        ),
      );
    }
  } else if (row.presetKey && input.credentials) {
    const next = { ...row.credentialsEncrypted };
    for (const [key, value] of Object.entries(input.credentials))
      if (value.trim() && key in next) next[key] = encryptSecret(value.trim());
    patch.credentialsEncrypted = next;
  }
  if (row.authType === "oauth" && patch.authType !== "oauth") patch.oauth = null;
  const updated = await updateIntegrationForOrg(db, ctx.orgId, id, patch);
  // Tokens belong to the server, client and mode they were granted for: a change there needs a new connection.
  if (updated && row.authType === "oauth" && oauthConnectionChanged(row, updated)) {
    await deleteIntegrationCredentials(db, updated.id);
    // A consent still pending was asked of the old server; its code must not be redeemed with the new one.
    await deletePendingFlows(db, updated.id);
  }
  await publishCatalogChange(db, ctx.orgId);
  await getMcpClient().pool.closeIntegration(id);
  if (updated) {
    const credentialsChanged =
      JSON.stringify(updated.credentialsEncrypted) !== JSON.stringify(row.credentialsEncrypted);
    await recordAudit(db, ctx, {
      action: "integration.update",
      ...integrationAuditTarget(updated),
      ...changedFields(integrationAuditFields(row), integrationAuditFields(updated)),
      changedSecrets: credentialsChanged ? ["credentials"] : [],
    });
  }
  return toView(updated ?? row);
}
