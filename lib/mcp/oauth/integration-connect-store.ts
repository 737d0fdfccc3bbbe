import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { mcpIntegrations } from "@/db/schema";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { findIntegrationForOrg, type McpIntegration } from "../repository";
import type { OAuthConnectStore } from "./connect-provider";
import { discoveryOf, registeredClientOf } from "./integration-client";
import { type CredentialOwner, saveConnectedTokens } from "./stored-credentials";
import { tokenSetFrom } from "./token-set";

/** Keeps what the SDK learns on the integration (registration, discovery) and the tokens on the owner's row. */
export function integrationConnectStore(
  db: Database,
  integration: McpIntegration,
  owner: CredentialOwner,
  connectedBy: string,
): OAuthConnectStore {
  const row = and(
    eq(mcpIntegrations.id, integration.id),
    eq(mcpIntegrations.organizationId, integration.organizationId),
  );
  // The catalog keeps the integration's row, which calls connect with: it must read these changes again.
  const changed = () =>
    publishCatalogChange(db, integration.organizationId, { integrationId: integration.id });
  const reload = async () =>
    (await findIntegrationForOrg(db, integration.organizationId, integration.id)) ?? integration;
  return {
    client: async () => registeredClientOf(await reload()),
    async saveClient(client) {
      const sealed = encryptSecret(JSON.stringify(client));
      await db
        .update(mcpIntegrations)
        .set({
          credentialsEncrypted: sql`${mcpIntegrations.credentialsEncrypted} || jsonb_build_object('registeredClient', ${sealed}::text)`,
        })
        .where(row);
      await changed();
    },
    async forgetClient() {
      await db
        .update(mcpIntegrations)
        .set({ credentialsEncrypted: sql`${mcpIntegrations.credentialsEncrypted} - 'registeredClient'` })
        .where(row);
      await changed();
    },
    discovery: async () => discoveryOf(await reload()),
    async saveDiscovery(state) {
      await db
        .update(mcpIntegrations)
        .set({
          oauth: sql`jsonb_set(coalesce(${mcpIntegrations.oauth}, '{}'::jsonb), '{discovery}', ${JSON.stringify(state)}::jsonb)`,
        })
        .where(row);
      await changed();
    },
    async forgetDiscovery() {
      await db
        .update(mcpIntegrations)
        .set({ oauth: sql`${mcpIntegrations.oauth} - 'discovery'` })
        .where(row);
      await changed();
    },
    saveTokens: (tokens) => saveConnectedTokens(db, owner, tokenSetFrom(tokens), connectedBy),
  };
}
