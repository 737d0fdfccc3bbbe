import { beforeEach, describe, expect, it } from "vitest";
import { UnauthorizedError } from "@/lib/errors";
import {
  McpConnectionError,
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpIntegrationNotFoundError,
  UnexpectedMcpError,
} from "@/lib/mcp/errors";
import { DiscoverMcpCapabilities } from "@/lib/mcp/use-cases/discover-mcp-capabilities";
import {
  buildConfig,
  collectingLogger,
  ctxA,
  FakeClient,
  FakeRepository,
  INTEGRATION_ID,
  integrationRow,
  ORG_B,
} from "./fakes";

let repository: FakeRepository;
let client: FakeClient;
let log: ReturnType<typeof collectingLogger>;
let useCase: DiscoverMcpCapabilities;

beforeEach(() => {
  repository = new FakeRepository();
  client = new FakeClient();
  log = collectingLogger();
  useCase = new DiscoverMcpCapabilities({
    repository,
    client,
    buildConnectionConfig: buildConfig,
    logger: log.logger,
  });
});

const discover = (ctx = ctxA) => useCase.execute(ctx, { integrationId: INTEGRATION_ID });

describe("DiscoverMcpCapabilities", () => {
  it("successfully discovers capabilities from an enabled integration", async () => {
    client.capabilities = async () => ({
      tools: [{ name: "search", description: "Search docs", inputSchema: { type: "object" } }],
      resources: [{ uri: "docs://a", name: "a", mimeType: "text/plain" }],
      prompts: [{ name: "summarize", arguments: [{ name: "topic", required: true }] }],
    });
    const result = await discover();
    expect(result).toEqual({
      tools: [
        {
          name: "search",
          description: "Search docs",
          inputSchema: { type: "object" },
          integrationId: INTEGRATION_ID,
        },
      ],
      resources: [{ uri: "docs://a", name: "a", mimeType: "text/plain", integrationId: INTEGRATION_ID }],
      prompts: [
        { name: "summarize", arguments: [{ name: "topic", required: true }], integrationId: INTEGRATION_ID },
      ],
    });
    expect(client.calls[0]?.config).toMatchObject({
      integrationId: INTEGRATION_ID,
      url: "https://mcp.example.com/mcp",
    });
  });

  it("returns empty arrays when the server has no capabilities", async () => {
    expect(await discover()).toEqual({ tools: [], resources: [], prompts: [] });
  });

  it("throws McpIntegrationNotFoundError when the integration does not exist", async () => {
    repository.rows.length = 0;
    const error = await discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpIntegrationNotFoundError);
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining(INTEGRATION_ID) });
  });

  it("throws McpIntegrationAccessDeniedError when the integration belongs to another organization", async () => {
    repository.rows[0] = integrationRow({ organizationId: ORG_B });
    const error = await discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpIntegrationAccessDeniedError);
    expect(error).toMatchObject({ status: 403 });
  });

  it("throws McpIntegrationDisabledError when the integration is disabled", async () => {
    repository.rows[0] = integrationRow({ enabled: false });
    const error = await discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpIntegrationDisabledError);
    expect(error).toMatchObject({ status: 400, message: `MCP integration ${INTEGRATION_ID} is disabled` });
  });

  it("throws UnauthorizedError when no user is authenticated", async () => {
    await expect(useCase.execute(null, { integrationId: INTEGRATION_ID })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(useCase.execute(undefined, { integrationId: INTEGRATION_ID })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it("never calls the MCP server when an access check fails", async () => {
    repository.rows[0] = integrationRow({ organizationId: ORG_B });
    await discover().catch(() => {});
    expect(client.calls).toHaveLength(0);
  });

  it("uses the organization from the request context, not from the query", async () => {
    const query = { integrationId: INTEGRATION_ID, organizationId: ORG_B, orgId: ORG_B } as {
      integrationId: string;
    };
    await expect(useCase.execute(ctxA, query)).resolves.toBeDefined();
    await expect(
      useCase.execute({ ...ctxA, orgId: ORG_B }, { integrationId: INTEGRATION_ID }),
    ).rejects.toBeInstanceOf(McpIntegrationAccessDeniedError);
  });

  it("wraps unexpected errors in UnexpectedMcpError", async () => {
    client.capabilities = async () => {
      throw new Error("socket exploded");
    };
    const error = await discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({ status: 500, message: "Unexpected error occurred" });
    repository.findByIdError = new Error("db down");
    await expect(discover()).rejects.toBeInstanceOf(UnexpectedMcpError);
  });

  it("re-throws domain errors from the client unchanged and records the failure", async () => {
    const failure = new McpConnectionError(INTEGRATION_ID, "The MCP server did not answer within 5 s.");
    client.capabilities = async () => {
      throw failure;
    };
    await expect(discover()).rejects.toBe(failure);
    expect(repository.recorded).toEqual([
      {
        id: INTEGRATION_ID,
        outcome: expect.objectContaining({ ok: false, error: "The MCP server did not answer within 5 s." }),
      },
    ]);
  });

  it("records a successful discovery as the integration's latest snapshot", async () => {
    client.capabilities = async () => ({
      tools: [{ name: "t", inputSchema: {} }],
      resources: [],
      prompts: [],
    });
    await discover();
    expect(repository.recorded[0]?.outcome).toMatchObject({
      ok: true,
      discovered: { tools: [{ name: "t", inputSchema: {} }] },
    });
  });

  it("logs the discovery and its result with counts and duration", async () => {
    client.capabilities = async () => ({
      tools: [{ name: "t", inputSchema: {} }],
      resources: [],
      prompts: [],
    });
    await discover();
    expect(log.lines[0]).toMatchObject({ msg: "discoverMcpCapabilities", integrationId: INTEGRATION_ID });
    expect(log.lines[1]).toMatchObject({
      msg: "discoverySucceeded",
      toolCount: 1,
      resourceCount: 0,
      promptCount: 0,
    });
    expect(typeof log.lines[1]?.durationMs).toBe("number");
    repository.rows[0] = integrationRow({ enabled: false });
    await discover().catch(() => {});
    expect(log.lines.at(-1)).toMatchObject({
      msg: "discoveryFailed",
      level: "warn",
      code: "bad_request:mcp_integration_disabled",
    });
  });
});
