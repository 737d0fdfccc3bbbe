import { getEnv } from "@/lib/env";
import { SdkMcpClient } from "./mcp-client";
import { McpSessionPool } from "./session-pool";

const globalForMcp = globalThis as unknown as { switchboardMcpClient?: SdkMcpClient };

/** The process-wide MCP client, whose session pool every request shares; closed when the process stops. */
export function getMcpClient(): SdkMcpClient {
  if (!globalForMcp.switchboardMcpClient) {
    const client = new SdkMcpClient(new McpSessionPool({ idleMs: getEnv().MCP_IDLE_TIMEOUT_MS }));
    globalForMcp.switchboardMcpClient = client;
    const shutdown = () => void client.pool.closeAll();
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
    process.once("beforeExit", shutdown);
  }
  return globalForMcp.switchboardMcpClient;
}
