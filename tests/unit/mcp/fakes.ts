import type {
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
  ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "@/lib/auth/context";
import { createLogger, type Logger } from "@/lib/logger";
import {
  McpErrorCode,
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpIntegrationNotFoundError,
} from "@/lib/mcp/errors";
import type {
  CatalogIntegration,
  DiscoveryOutcome,
  McpIntegration,
  McpIntegrationsRepositoryPort,
} from "@/lib/mcp/repository";
import type { McpClientPort, McpConnectionConfig, ToolExecutionResult } from "@/lib/mcp/types";
import type { McpUseCaseDeps } from "@/lib/mcp/use-cases/check-integration-access";

export const ORG_ID = "0c0c0c0c-0000-4000-8000-000000000001";
export const OTHER_ORG_ID = "0c0c0c0c-0000-4000-8000-000000000002";
export const INTEGRATION_ID = "1a1a1a1a-0000-4000-8000-000000000001";
export const MISSING_INTEGRATION_ID = "1a1a1a1a-0000-4000-8000-0000000000ff";

/** A signed-in member of ORG_ID, unless overridden. */
export function userContext(overrides: Partial<Pick<RequestContext, "orgId" | "role">> = {}): RequestContext {
  return { userId: "user-1", orgId: ORG_ID, role: "member", isSuperadmin: false, ...overrides };
}

/** An enabled Streamable HTTP integration of ORG_ID with a bearer token, unless overridden. */
export function makeIntegration(overrides: Partial<McpIntegration> = {}): McpIntegration {
  const now = new Date("2025-01-01T00:00:00.000Z");
  return {
    id: INTEGRATION_ID,
    organizationId: ORG_ID,
    name: "Docs server",
    slug: "docs-server",
    transport: "streamable-http",
    url: "https://mcp.example.com/mcp",
    command: null,
    args: [],
    envEncrypted: {},
    authType: "bearer",
    credentialsEncrypted: { token: "encrypted-token" },
    oauth: null,
    enabled: true,
    presetKey: null,
    timeoutMs: 5_000,
    status: "unknown",
    lastError: null,
    lastCheckedAt: null,
    lastLatencyMs: null,
    state: null,
    stateCause: null,
    stateChangedAt: null,
    discovered: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** An in-memory repository that records every lookup and every discovery outcome. */
export class InMemoryIntegrationsRepository implements McpIntegrationsRepositoryPort {
  readonly rows = new Map<string, McpIntegration>();
  readonly findByIdCalls: string[] = [];
  readonly discoveries: { id: string; outcome: DiscoveryOutcome }[] = [];
  /** When set, findById throws it (a database outage, say). */
  findByIdError: unknown;

  constructor(rows: McpIntegration[] = []) {
    for (const row of rows) this.rows.set(row.id, row);
  }

  async findById(id: string): Promise<McpIntegration | undefined> {
    this.findByIdCalls.push(id);
    if (this.findByIdError !== undefined) throw this.findByIdError;
    return this.rows.get(id);
  }

  async recordDiscovery(id: string, outcome: DiscoveryOutcome): Promise<void> {
    this.discoveries.push({ id, outcome });
  }
}

export type ListedFeatures = Awaited<ReturnType<McpClientPort["listFeatures"]>>;

/** A client whose answers each test sets; it records what it was asked. */
export class FakeMcpClient implements McpClientPort {
  readonly listCapabilitiesCalls: McpConnectionConfig[] = [];
  readonly executeToolCalls: { config: McpConnectionConfig; name: string; args: Record<string, unknown> }[] =
    [];

  onListFeatures: (config: McpConnectionConfig) => Promise<ListedFeatures> = async () => ({
    tools: [],
    resources: [],
    prompts: [],
  });

  onExecuteTool: (
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
  ) => Promise<ToolExecutionResult> = async () => ({ isError: false, content: [] });

  onReadResource: (config: McpConnectionConfig, uri: string) => Promise<ReadResourceResult> = async (
    _,
    uri,
  ) => ({
    contents: [{ uri, text: "" }],
  });

  onGetPrompt: (
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ) => Promise<GetPromptResult> = async () => ({ messages: [] });

  get callCount(): number {
    return this.listCapabilitiesCalls.length + this.executeToolCalls.length;
  }

  listFeatures(config: McpConnectionConfig): Promise<ListedFeatures> {
    this.listCapabilitiesCalls.push(config);
    return this.onListFeatures(config);
  }

  executeTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolExecutionResult> {
    this.executeToolCalls.push({ config, name, args });
    return this.onExecuteTool(config, name, args);
  }

  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return Promise.resolve([]);
  }

  readResource(config: McpConnectionConfig, uri: string): Promise<ReadResourceResult> {
    return this.onReadResource(config, uri);
  }

  getPrompt(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult> {
    return this.onGetPrompt(config, name, args);
  }

  subscribeResource(): Promise<void> {
    return Promise.resolve();
  }

  complete(): Promise<CompleteResult> {
    return Promise.resolve({ completion: { values: [] } });
  }
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  msg: string;
  [field: string]: unknown;
}

/** A real structured logger writing into an array; every line is parsed back from JSON. */
export function collectLogs(): { logger: Logger; lines: LogLine[]; find: (msg: string) => LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger({}, (line) => lines.push(JSON.parse(line) as LogLine), "debug");
  return { logger, lines, find: (msg) => lines.filter((line) => line.msg === msg) };
}

/** A connection config derived from the row alone, so tests can check the client got the row's config. */
export function testConnectionConfig(integration: CatalogIntegration): McpConnectionConfig {
  return {
    integrationId: integration.id,
    orgId: integration.organizationId,
    timeoutMs: integration.timeoutMs,
    transport: "streamable-http",
    url: integration.url ?? "",
    headers: { Authorization: "Bearer decrypted-token" },
    allowPrivateNetwork: false,
  };
}

export interface TestDeps extends McpUseCaseDeps {
  repository: InMemoryIntegrationsRepository;
  client: FakeMcpClient;
  /** The integrations buildConnectionConfig was called with. */
  configsBuiltFor: CatalogIntegration[];
  logs: ReturnType<typeof collectLogs>;
}

/** Fresh fakes around the given rows (by default one enabled integration of ORG_ID). */
export function createTestDeps(rows: McpIntegration[] = [makeIntegration()]): TestDeps {
  const logs = collectLogs();
  const configsBuiltFor: CatalogIntegration[] = [];
  return {
    repository: new InMemoryIntegrationsRepository(rows),
    client: new FakeMcpClient(),
    buildConnectionConfig: (integration) => {
      configsBuiltFor.push(integration);
      return testConnectionConfig(integration);
    },
    logger: logs.logger,
    configsBuiltFor,
    logs,
  };
}

/** Runs a use case and returns what it threw, failing the test if it did not throw. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the use case to throw");
}

/**
 * The refusals every use case makes before it reaches the server, one row each: the integrations stored, the id
 * asked for, and the error that must come back naming that id.
 */
export const accessRefusals = [
  {
    refusal: "McpIntegrationNotFoundError (404) when the integration does not exist",
    rows: [makeIntegration()],
    integrationId: MISSING_INTEGRATION_ID,
    error: McpIntegrationNotFoundError,
    code: McpErrorCode.MCP_INTEGRATION_NOT_FOUND,
    status: 404,
  },
  {
    refusal: "McpIntegrationAccessDeniedError (403) when the integration belongs to a different organization",
    rows: [makeIntegration({ organizationId: OTHER_ORG_ID })],
    integrationId: INTEGRATION_ID,
    error: McpIntegrationAccessDeniedError,
    code: McpErrorCode.MCP_INTEGRATION_ACCESS_DENIED,
    status: 403,
  },
  {
    refusal: "McpIntegrationDisabledError (400) when the integration is disabled",
    rows: [makeIntegration({ enabled: false })],
    integrationId: INTEGRATION_ID,
    error: McpIntegrationDisabledError,
    code: McpErrorCode.MCP_INTEGRATION_DISABLED,
    status: 400,
  },
];

/**
 * Requests every use case turns away before the client is called, one row each: the case, the integrations
 * stored, the caller (`anonymous` stands for no one signed in, as the use case under test is given it), the id.
 */
export function failedAccessChecks<Anonymous extends null | undefined>(
  anonymous: Anonymous,
): [string, McpIntegration[], RequestContext | Anonymous, string][] {
  return [
    ["not signed in", [makeIntegration()], anonymous, INTEGRATION_ID],
    ["integration missing", [makeIntegration()], userContext(), MISSING_INTEGRATION_ID],
    [
      "other organization",
      [makeIntegration({ organizationId: OTHER_ORG_ID })],
      userContext(),
      INTEGRATION_ID,
    ],
    ["integration disabled", [makeIntegration({ enabled: false })], userContext(), INTEGRATION_ID],
  ];
}
