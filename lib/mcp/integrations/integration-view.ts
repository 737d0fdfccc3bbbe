import type { DiscoveredSnapshot } from "@/db/schema";
import { type OAuthConnections, type OAuthIntegrationView, oauthView } from "../oauth/oauth-view";
import { findPreset } from "../presets";
import type { McpIntegration } from "../repository";
import type { McpAuthType, McpTransport } from "../types";
import { type IntegrationStateView, stateView } from "./state-view";

/** What the browser may see of an integration: never a credential value, only which ones are set. */
export interface IntegrationView {
  id: string;
  name: string;
  slug: string;
  transport: McpTransport;
  url: string | null;
  command: string | null;
  args: string[];
  authType: McpAuthType;
  credentialKeys: string[];
  presetKey: string | null;
  enabled: boolean;
  timeoutMs: number;
  status: "unknown" | "connected" | "failing" | "disabled";
  /** How its server is doing from calls and checks, when anything was seen. */
  state: IntegrationStateView | null;
  lastError: string | null;
  lastCheckedAt: string | null;
  lastLatencyMs: number | null;
  counts: { tools: number; resources: number; prompts: number } | null;
  discovered: DiscoveredSnapshot | null;
  oauth: OAuthIntegrationView | null;
}

export function toView(row: McpIntegration, connections?: OAuthConnections): IntegrationView {
  const preset = row.presetKey ? findPreset(row.presetKey) : undefined;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    transport: row.transport,
    url: row.url,
    // A bundled server's command is resolved on the server at connect time; show what it is instead.
    command: preset?.bundled ? preset.bundled.packageName : row.command,
    args: preset?.bundled ? [] : row.args,
    authType: row.authType,
    credentialKeys: Object.keys(row.credentialsEncrypted),
    presetKey: row.presetKey,
    enabled: row.enabled,
    timeoutMs: row.timeoutMs,
    status: row.enabled ? row.status : "disabled",
    state: stateView(row),
    lastError: row.lastError,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastLatencyMs: row.lastLatencyMs,
    counts: row.discovered
      ? {
          tools: row.discovered.tools.length,
          resources: row.discovered.resources.length,
          prompts: row.discovered.prompts.length,
        }
      : null,
    discovered: row.discovered ?? null,
    oauth: oauthView(row, connections),
  };
}
