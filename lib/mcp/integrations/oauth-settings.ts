import { encryptSecret } from "@/lib/crypto/secret-box";
import type { McpIntegration } from "../repository";
import type { ParsedIntegrationUpdate } from "./integration-input";

/** The OAuth part of an edit; a new server or client drops what was learnt about the old one. */
export function oauthPatch(row: McpIntegration, input: ParsedIntegrationUpdate) {
  const previous = row.authType === "oauth" ? row.oauth : null;
  const clientId = input.oauthClientId !== undefined ? input.oauthClientId : previous?.clientId;
  const sameServer = !input.url || input.url === row.url;
  const sameClient = (clientId || undefined) === (previous?.clientId || undefined);
  const oauth = {
    credentials: input.oauthCredentials ?? previous?.credentials ?? "organization",
    ...((input.oauthScope ?? previous?.scope) ? { scope: input.oauthScope ?? previous?.scope } : {}),
    ...(clientId ? { clientId } : {}),
    ...(sameServer && previous?.discovery ? { discovery: previous.discovery } : {}),
  };
  const kept = previous ? row.credentialsEncrypted : {};
  const credentialsEncrypted: Record<string, string> = {};
  if (clientId && input.oauthClientSecret)
    credentialsEncrypted.clientSecret = encryptSecret(input.oauthClientSecret);
  else if (clientId && sameClient && kept.clientSecret) credentialsEncrypted.clientSecret = kept.clientSecret;
  if (!clientId && sameServer && kept.registeredClient)
    credentialsEncrypted.registeredClient = kept.registeredClient;
  return { oauth, credentialsEncrypted };
}

/** Whether an edit changed what the integration's OAuth tokens were granted for (server, client or mode). */
export function oauthConnectionChanged(before: McpIntegration, after: McpIntegration): boolean {
  if (after.authType !== "oauth") return true;
  return (
    before.url !== after.url ||
    before.oauth?.credentials !== after.oauth?.credentials ||
    (before.oauth?.clientId ?? "") !== (after.oauth?.clientId ?? "")
  );
}
