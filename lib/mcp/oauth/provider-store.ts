import type { Database } from "@/db/client";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import {
  findIntegrationForOrg,
  forgetOAuthDiscovery,
  forgetRegisteredClient,
  type McpIntegration,
  saveOAuthDiscovery,
  saveRegisteredClient,
} from "../repository";
import { discoveryOf, registeredClientOf } from "./integration-client";
import type { OAuthConnectStore } from "./sdk-auth-provider";
import { type CredentialOwner, saveConnectedTokens } from "./stored-credentials";
import { tokenSetFrom } from "./token-set";

/** Keeps what the SDK learns on the integration (registration, discovery) and the tokens on the owner's row. */
export function integrationConnectStore(
  db: Database,
  integration: McpIntegration,
  owner: CredentialOwner,
  connectedBy: string,
): OAuthConnectStore {
  // The catalog keeps the integration's row, which calls connect with: it must read these changes again.
  const changed = () =>
    publishCatalogChange(db, integration.organizationId, { integrationId: integration.id });
  const reload = async () =>
    (await findIntegrationForOrg(db, integration.organizationId, integration.id)) ?? integration;
  return {
    client: async () => registeredClientOf(await reload()),
    async saveClient(client) {
      await saveRegisteredClient(db, integration, encryptSecret(JSON.stringify(client)));
      await changed();
    },
    async forgetClient() {
      await forgetRegisteredClient(db, integration);
      await changed();
    },
    discovery: async () => discoveryOf(await reload()),
    async saveDiscovery(state) {
      await saveOAuthDiscovery(db, integration, state);
      await changed();
    },
    async forgetDiscovery() {
      await forgetOAuthDiscovery(db, integration);
      await changed();
    },
    saveTokens: (tokens) => saveConnectedTokens(db, owner, tokenSetFrom(tokens), connectedBy),
  };
}
