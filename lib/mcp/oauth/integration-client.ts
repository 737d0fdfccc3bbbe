import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import { decryptSecret } from "@/lib/crypto/secret-box";
import type { CatalogIntegration } from "../repository";
import type { PreRegisteredClient } from "./sdk-auth-provider";

/** The client an admin registered beforehand, with its secret decrypted; undefined when registration is dynamic. */
export function preRegisteredClientOf(integration: CatalogIntegration): PreRegisteredClient | undefined {
  const clientId = integration.oauth?.clientId;
  if (!clientId) return undefined;
  const sealed = integration.credentialsEncrypted.clientSecret;
  return { clientId, clientSecret: sealed ? decryptSecret(sealed) : undefined };
}

// Stored as the SDK handed it over (with `issuer`); only the client id is required to use it.
const storedRegistration = z.looseObject({ client_id: z.string().min(1) });

/** The dynamic registration stored for the integration, decrypted. */
export function registeredClientOf(integration: CatalogIntegration): OAuthClientInformationMixed | undefined {
  const sealed = integration.credentialsEncrypted.registeredClient;
  if (!sealed) return undefined;
  const parsed = storedRegistration.safeParse(JSON.parse(decryptSecret(sealed)));
  return parsed.success ? (parsed.data as OAuthClientInformationMixed) : undefined;
}

/** The client tokens are requested with: the pre-registered one, else the dynamic registration. */
export function oauthClientOf(integration: CatalogIntegration): OAuthClientInformationMixed | undefined {
  const preRegistered = preRegisteredClientOf(integration);
  if (preRegistered) {
    return {
      client_id: preRegistered.clientId,
      ...(preRegistered.clientSecret ? { client_secret: preRegistered.clientSecret } : {}),
    };
  }
  return registeredClientOf(integration);
}

/** What discovery found when the integration was connected. */
export function discoveryOf(integration: CatalogIntegration): OAuthDiscoveryState | undefined {
  const discovery = integration.oauth?.discovery;
  return discovery && typeof discovery.authorizationServerUrl === "string"
    ? (discovery as unknown as OAuthDiscoveryState)
    : undefined;
}
