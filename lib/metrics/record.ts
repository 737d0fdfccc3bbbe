import { metrics, orgLabelOf } from "./metrics";

export type { IntegrationStateSample } from "./metrics";

/** A tool call through the catalog: its count and duration by surface, source and outcome. */
export function countToolCall(
  surface: string,
  source: string | undefined,
  outcome: string,
  durationMs: number,
  orgId: string | undefined,
): void {
  const m = metrics();
  if (!m) return;
  const labels = { surface, source: source ?? "unknown", outcome, ...orgLabelOf(m, orgId) };
  m.toolCalls.inc(labels);
  m.toolDuration.observe(labels, durationMs / 1000);
}

export function countDiscovery(integrationId: string, ok: boolean): void {
  metrics()?.discoveries.inc({ integration: integrationId, outcome: ok ? "ok" : "failed" });
}

export function countSessionOpened(integrationId: string, transport: string): void {
  metrics()?.sessionsOpened.inc({ integration: integrationId, transport });
}

export function countSessionReinitialized(integrationId: string): void {
  metrics()?.sessionsReinitialized.inc({ integration: integrationId });
}

export function countStateChange(integrationId: string, state: string): void {
  metrics()?.integrationStateChanges.inc({ integration: integrationId, state });
}

const SANDBOX_LIMITS = new Set(["timeout", "memory", "output_too_large"]);

/** A sandbox run's outcome: "ok" or its error's kind; the kinds that are limits are also counted as such. */
export function countSandboxRun(outcome: string): void {
  const m = metrics();
  if (!m) return;
  m.sandboxRuns.inc({ outcome });
  if (SANDBOX_LIMITS.has(outcome)) m.sandboxLimitsHit.inc({ limit: outcome });
}

/** A request refused by a rate limit; the bucket's kind ("api-key" of "api-key:<id>") is the label. */
export function countRateLimited(bucket: string): void {
  metrics()?.rateLimited.inc({ limit: bucket.split(":")[0] ?? bucket });
}

/** A request let in at an MCP endpoint, by the endpoint's kind and the credential it came with. */
export function countMcpRequest(endpoint: "gateway" | "integration", credential: "api-key" | "oauth"): void {
  metrics()?.mcpRequests.inc({ endpoint, credential });
}

/** Tokens issued by the authorization server, by grant type. */
export function countOAuthTokens(grantType: "authorization_code" | "refresh_token"): void {
  metrics()?.oauthTokens.inc({ grant_type: grantType });
}
