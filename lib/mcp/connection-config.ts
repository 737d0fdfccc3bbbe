import path from "node:path";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { getEnv } from "@/lib/env";
import { bundledCommand, findPreset, integrationDataFolder } from "./presets";
import type { CatalogIntegration } from "./repository";
import type { McpConnectionConfig, McpOAuthConnection } from "./types";

function decryptAll(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, sealed]) => [key, decryptSecret(sealed)]));
}

/**
 * Builds what the client needs to connect, decrypting credentials only here, only in memory. An OAuth integration
 * takes its tokens from `oauth`, which knows the caller and the database.
 */
export function buildConnectionConfig(
  integration: CatalogIntegration,
  oauth?: (integration: CatalogIntegration) => McpOAuthConnection,
): McpConnectionConfig {
  const base = {
    integrationId: integration.id,
    orgId: integration.organizationId,
    timeoutMs: integration.timeoutMs,
  };
  if (integration.transport === "stdio") {
    const entry = integration.presetKey ? findPreset(integration.presetKey) : undefined;
    const env = decryptAll(integration.envEncrypted);
    if (entry?.bundled) {
      const { dataFile, packageName } = entry.bundled;
      // A server that keeps data keeps it per integration, in a folder made for it before it starts.
      const dataFolder = dataFile ? integrationDataFolder(integration.id) : undefined;
      if (dataFile && dataFolder) env[dataFile.env] ??= path.join(dataFolder, dataFile.name);
      return {
        ...base,
        transport: "stdio",
        ...bundledCommand(entry),
        env,
        displayName: packageName,
        ...(dataFolder ? { dataFolder } : {}),
      };
    }
    return { ...base, transport: "stdio", command: integration.command ?? "", args: integration.args, env };
  }
  const credentials = decryptAll(integration.credentialsEncrypted);
  const headers: Record<string, string> = {};
  if (integration.authType === "bearer" && credentials.token)
    headers.Authorization = `Bearer ${credentials.token}`;
  if (integration.authType === "headers") Object.assign(headers, credentials);
  if (integration.authType === "oauth" && !oauth)
    throw new Error("An OAuth integration needs its caller's tokens.");
  return {
    ...base,
    transport: integration.transport,
    url: integration.url ?? "",
    headers,
    allowPrivateNetwork: getEnv().MCP_ALLOW_PRIVATE_NETWORKS,
    ...(integration.authType === "oauth" && oauth ? { oauth: oauth(integration) } : {}),
  };
}
