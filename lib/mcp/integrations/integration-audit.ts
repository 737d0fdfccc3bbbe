import { auditPick } from "@/lib/audit/record-audit";
import type { McpIntegration } from "../repository";

/** What an audit entry about the integration names. */
export const integrationAuditTarget = (row: McpIntegration) => ({
  targetType: "integration",
  targetId: row.id,
  targetName: row.name,
});

/**
 * The fields an audit entry may show: never credentials or environment values, whose names alone are kept. The
 * preset is recorded under `catalogKey`, as in the entries written before presets had their name.
 */
export const integrationAuditFields = ({ presetKey, ...row }: McpIntegration) => ({
  ...auditPick(row, ["name", "transport", "url", "command", "args", "authType", "timeoutMs", "enabled"]),
  catalogKey: presetKey,
});

/** The names (never the values) of the integration's stored secrets. */
export const integrationSecretNames = (row: McpIntegration) => [
  ...Object.keys(row.credentialsEncrypted).map((key) => `credentials.${key}`),
  ...Object.keys(row.envEncrypted).map((key) => `env.${key}`),
];
