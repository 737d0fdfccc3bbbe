import type { McpIntegrationRow } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import { createLogger } from "@/lib/logger";
import type { DiscoveryOutcome, McpIntegrationsRepositoryPort } from "@/lib/mcp/repository";
import type { McpClientPort, McpConnectionConfig } from "@/lib/mcp/types";

export const ORG_A = "00000000-0000-4000-8000-00000000000a";
export const ORG_B = "00000000-0000-4000-8000-00000000000b";
export const INTEGRATION_ID = "11111111-1111-4111-8111-111111111111";

export const ctxA: RequestContext = { userId: "u-a", orgId: ORG_A, role: "member", isSuperadmin: false };

export function integrationRow(overrides: Partial<McpIntegrationRow> = {}): McpIntegrationRow {
  return {
    id: INTEGRATION_ID,
    organizationId: ORG_A,
    name: "Docs",
    slug: "docs",
    transport: "streamable-http",
    url: "https://mcp.example.com/mcp",
    command: null,
    args: [],
    envEncrypted: {},
    authType: "none",
    credentialsEncrypted: {},
    enabled: true,
    catalogKey: null,
    timeoutMs: 5000,
    status: "unknown",
    lastError: null,
    lastCheckedAt: null,
    lastLatencyMs: null,
    discovered: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

export class FakeRepository implements McpIntegrationsRepositoryPort {
  readonly recorded: { id: string; outcome: DiscoveryOutcome }[] = [];
  findByIdError?: Error;
  constructor(readonly rows: McpIntegrationRow[] = [integrationRow()]) {}
  async findById(id: string) {
    if (this.findByIdError) throw this.findByIdError;
    return this.rows.find((row) => row.id === id);
  }
  async recordDiscovery(id: string, outcome: DiscoveryOutcome) {
    this.recorded.push({ id, outcome });
  }
}

export class FakeClient implements McpClientPort {
  readonly calls: { method: string; config: McpConnectionConfig; args?: unknown[] }[] = [];
  listCapabilities: McpClientPort["listCapabilities"] = async (config) => {
    this.calls.push({ method: "listCapabilities", config });
    return this.capabilities();
  };
  executeTool: McpClientPort["executeTool"] = async (config, name, args) => {
    this.calls.push({ method: "executeTool", config, args: [name, args] });
    return this.execution(name, args);
  };
  capabilities: () => Promise<Awaited<ReturnType<McpClientPort["listCapabilities"]>>> = async () => ({
    tools: [],
    resources: [],
    prompts: [],
  });
  execution: (name: string, args: Record<string, unknown>) => ReturnType<McpClientPort["executeTool"]> =
    async () => ({
      isError: false,
      content: [{ type: "text", text: "ok" }],
    });
}

/** A logger whose lines the test can read. */
export function collectingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({}, (line) => lines.push(JSON.parse(line)), "debug");
  return { logger, lines, messages: () => lines.map((line) => line.msg) };
}

export const buildConfig = (row: McpIntegrationRow): McpConnectionConfig => ({
  integrationId: row.id,
  timeoutMs: row.timeoutMs,
  transport: "streamable-http",
  url: row.url ?? "",
  headers: {},
  allowPrivateNetwork: false,
});
