import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { getEnv } from "@/lib/env";
import { processWide } from "@/lib/process-wide.mjs";

/** Seconds, from 5 ms (a cached REST call) to 2 minutes (a slow tool or a long chat turn). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface OpenSessions {
  integrationId: string;
  transport: string;
  count: number;
}

/** One integration's state as this process knows it (see IntegrationState). */
export interface IntegrationStateSample {
  integrationId: string;
  state: string;
}

const STATES = ["healthy", "degraded", "failing", "recovering"] as const;

// Where the session and state gauges read from: the process's session pool, which says so when it is made.
const gaugeSources = () =>
  processWide(
    "metricSources",
    (): { sessions?: () => OpenSessions[]; integrationStates?: () => IntegrationStateSample[] } => ({}),
  );

export function reportOpenSessions(source: () => OpenSessions[]): void {
  gaugeSources().sessions = source;
}

export function reportIntegrationStates(source: () => IntegrationStateSample[]): void {
  gaugeSources().integrationStates = source;
}

function createMetrics(orgLabel: boolean) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "switchboard_" });
  // The organization is a label only when the operator asks: one series per organization otherwise adds up.
  const org = orgLabel ? (["organization"] as const) : ([] as const);
  return {
    registry,
    orgLabel,
    httpRequests: new Counter({
      name: "switchboard_http_requests_total",
      help: "API requests answered, by surface (gateway, rest, chat, auth, app), route and status.",
      labelNames: ["surface", "route", "status", ...org],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "switchboard_http_request_duration_seconds",
      help: "Time to answer an API request (to its first byte, for streamed answers).",
      labelNames: ["surface", "route", ...org],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    toolCalls: new Counter({
      name: "switchboard_tool_calls_total",
      help: "Tool calls through the catalog, by surface, source (builtin, integration, capability) and outcome.",
      labelNames: ["surface", "source", "outcome", ...org],
      registers: [registry],
    }),
    toolDuration: new Histogram({
      name: "switchboard_tool_call_duration_seconds",
      help: "Time of a tool call through the catalog, from lookup to result.",
      labelNames: ["surface", "source", "outcome", ...org],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    sessionsOpened: new Counter({
      name: "switchboard_mcp_sessions_opened_total",
      help: "MCP sessions opened to an integration's server (a first use, an edit, or after one closed).",
      labelNames: ["integration", "transport"],
      registers: [registry],
    }),
    sessionsReinitialized: new Counter({
      name: "switchboard_mcp_sessions_reinitialized_total",
      help: "MCP sessions opened again because the server had expired them.",
      labelNames: ["integration"],
      registers: [registry],
    }),
    sessionsOpen: new Gauge({
      name: "switchboard_mcp_sessions_open",
      help: "MCP sessions this instance holds open (or is opening), by integration and transport.",
      labelNames: ["integration", "transport"],
      registers: [registry],
      collect() {
        this.reset();
        for (const { integrationId, transport, count } of gaugeSources().sessions?.() ?? [])
          this.set({ integration: integrationId, transport }, count);
      },
    }),
    integrationState: new Gauge({
      name: "switchboard_integration_state",
      help: "Each integration's state as this instance sees it: 1 for its state (healthy, degraded, failing, recovering), 0 for the others.",
      labelNames: ["integration", "state"],
      registers: [registry],
      collect() {
        this.reset();
        for (const { integrationId, state } of gaugeSources().integrationStates?.() ?? [])
          for (const name of STATES)
            this.set({ integration: integrationId, state: name }, name === state ? 1 : 0);
      },
    }),
    integrationStateChanges: new Counter({
      name: "switchboard_integration_state_changes_total",
      help: "Times an integration entered a state (healthy, degraded, failing, recovering) on this instance.",
      labelNames: ["integration", "state"],
      registers: [registry],
    }),
    discoveries: new Counter({
      name: "switchboard_discoveries_total",
      help: "Discoveries of an integration's tools, resources and prompts, by outcome (ok, failed).",
      labelNames: ["integration", "outcome"],
      registers: [registry],
    }),
    sandboxRuns: new Counter({
      name: "switchboard_sandbox_runs_total",
      help: "Capability runs in the sandbox, by outcome (ok, or the error's kind).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    sandboxLimitsHit: new Counter({
      name: "switchboard_sandbox_limits_hit_total",
      help: "Capability runs stopped by a sandbox limit (timeout, memory, output_too_large).",
      labelNames: ["limit"],
      registers: [registry],
    }),
    mcpRequests: new Counter({
      name: "switchboard_mcp_requests_total",
      help: "Requests let in at the MCP endpoints, by endpoint (gateway, integration) and credential (api-key, oauth).",
      labelNames: ["endpoint", "credential"],
      registers: [registry],
    }),
    oauthTokens: new Counter({
      name: "switchboard_oauth_tokens_issued_total",
      help: "Access tokens the authorization server issued, by grant type (authorization_code, refresh_token).",
      labelNames: ["grant_type"],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "switchboard_rate_limited_requests_total",
      help: "Requests refused by a rate limit, by the kind of limit (api-key, …).",
      labelNames: ["limit"],
      registers: [registry],
    }),
    dbQueries: new Counter({
      name: "switchboard_db_queries_total",
      help: "Statements sent to the database.",
      registers: [registry],
    }),
    dbInFlight: new Gauge({
      name: "switchboard_db_statements_in_flight",
      help: "Statements sent and not yet answered: how much of the pool is in use (at most its size).",
      registers: [registry],
    }),
    dbPoolSize: new Gauge({
      name: "switchboard_db_pool_max_connections",
      help: "Connections the database pool may open (1 for the embedded database).",
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

// One set per process: route bundles and the server's own modules each load this file.
const held = () => processWide("metrics", (): { metrics?: Metrics | null } => ({}));

/** The process's metrics, or undefined when they are off (no METRICS_TOKEN): then nothing is counted. */
export function metrics(): Metrics | undefined {
  const holder = held();
  if (holder.metrics === undefined) {
    const env = getEnv();
    holder.metrics = env.METRICS_TOKEN ? createMetrics(env.METRICS_ORG_LABEL) : null;
  }
  return holder.metrics ?? undefined;
}

/** The organization label's value when it is on (an empty value for work outside an organization). */
export function orgLabelOf(m: Metrics, orgId: string | undefined): Record<string, string> {
  return m.orgLabel ? { organization: orgId ?? "" } : {};
}

/** Drops the process's metrics, so the next use reads the environment again (tests). */
export function resetMetrics(): void {
  held().metrics = undefined;
}
