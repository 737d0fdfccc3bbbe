import { getEnv } from "@/lib/env";
import { closeAfterServer } from "@/lib/http/draining.mjs";
import { reportIntegrationStates, reportOpenSessions } from "@/lib/metrics/metrics";
import { processWide } from "@/lib/process-wide.mjs";
import { SdkMcpClient } from "./mcp-client";
import { McpSessionPool } from "./session-pool";

const held = () => processWide("mcpPool", (): { pool?: McpSessionPool } => ({}));

/** The process-wide session pool: one per process, so every route shares its sessions and stdio processes. */
export function getMcpPool(): McpSessionPool {
  const holder = held();
  if (!holder.pool) {
    const env = getEnv();
    const pool = new McpSessionPool({
      idleMs: env.MCP_IDLE_TIMEOUT_MS,
      limits: { total: env.MCP_MAX_PROCESSES, perOrganization: env.MCP_MAX_PROCESSES_PER_ORG },
    });
    holder.pool = pool;
    reportOpenSessions(() => pool.openSessions());
    reportIntegrationStates(() => pool.integrationStates());
    // Under the app's server, upstream sessions close after the calls in flight; elsewhere (the CLI) on the signal.
    if (!closeAfterServer(() => pool.closeAll())) {
      const shutdown = () => void pool.closeAll();
      process.once("SIGTERM", shutdown);
      process.once("SIGINT", shutdown);
    }
    process.once("beforeExit", () => void pool.closeAll());
  }
  return holder.pool;
}

/** Closes the process's session pool if anything opened it (the CLI, before it exits). */
export async function closeMcpPoolIfOpen(): Promise<void> {
  await held().pool?.closeAll();
}

let client: SdkMcpClient | undefined;

/**
 * The MCP client over the shared pool. The client itself is kept per module instance: each server bundle must
 * turn failures into its own copies of the error classes, or `instanceof` checks in that bundle would miss them.
 */
export function getMcpClient(): SdkMcpClient {
  client ??= new SdkMcpClient(getMcpPool());
  return client;
}
