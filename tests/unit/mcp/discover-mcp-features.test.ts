import { describe, expect, it } from "vitest";
import type { RequestContext } from "@/lib/auth/context";
import { AppError, UnauthorizedError } from "@/lib/errors";
import {
  McpConnectionError,
  McpErrorCode,
  McpIntegrationAccessDeniedError,
  McpProcessLimitError,
  McpUnauthorizedError,
  UnexpectedMcpError,
} from "@/lib/mcp/errors";
import type { McpIntegration } from "@/lib/mcp/repository";
import {
  DiscoverMcpFeatures,
  type DiscoverMcpFeaturesQuery,
} from "@/lib/mcp/use-cases/discover-mcp-features";
import {
  accessRefusals,
  createTestDeps,
  failedAccessChecks,
  INTEGRATION_ID,
  type ListedFeatures,
  makeIntegration,
  ORG_ID,
  OTHER_ORG_ID,
  rejection,
  type TestDeps,
  testConnectionConfig,
  userContext,
} from "./fakes";

const listed: ListedFeatures = {
  tools: [
    {
      name: "search_docs",
      title: "Search docs",
      description: "Full-text search over the documentation",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
    { name: "ping", inputSchema: { type: "object" } },
  ],
  resources: [{ uri: "docs://guide", name: "guide", description: "The guide", mimeType: "text/markdown" }],
  prompts: [
    {
      name: "summarize",
      description: "Summarize a page",
      arguments: [{ name: "page", description: "Page to summarize", required: true }],
    },
  ],
};

function setup(rows?: McpIntegration[]): { deps: TestDeps; useCase: DiscoverMcpFeatures } {
  const deps = createTestDeps(rows);
  return { deps, useCase: new DiscoverMcpFeatures(deps) };
}

describe("DiscoverMcpFeatures", () => {
  it("discovers tools, resources and prompts of an enabled integration as entities carrying its integrationId", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => listed;

    const result = await useCase.execute(userContext(), { integrationId: INTEGRATION_ID });

    expect(result).toEqual({
      tools: [
        {
          name: "search_docs",
          title: "Search docs",
          description: "Full-text search over the documentation",
          inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
          integrationId: INTEGRATION_ID,
        },
        { name: "ping", inputSchema: { type: "object" }, integrationId: INTEGRATION_ID },
      ],
      resources: [
        {
          uri: "docs://guide",
          name: "guide",
          description: "The guide",
          mimeType: "text/markdown",
          integrationId: INTEGRATION_ID,
        },
      ],
      prompts: [
        {
          name: "summarize",
          description: "Summarize a page",
          arguments: [{ name: "page", description: "Page to summarize", required: true }],
          integrationId: INTEGRATION_ID,
        },
      ],
    });
  });

  it("passes the client the connection config built from the integration", async () => {
    const integration = makeIntegration({ url: "https://tools.example.org/mcp", timeoutMs: 12_000 });
    const { deps, useCase } = setup([integration]);

    await useCase.execute(userContext(), { integrationId: INTEGRATION_ID });

    expect(deps.configsBuiltFor).toEqual([integration]);
    expect(deps.client.listCapabilitiesCalls).toEqual([testConnectionConfig(integration)]);
    expect(deps.client.listCapabilitiesCalls[0]).toMatchObject({
      integrationId: INTEGRATION_ID,
      url: "https://tools.example.org/mcp",
      timeoutMs: 12_000,
    });
  });

  it("returns empty arrays when the MCP server has no capabilities", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => ({ tools: [], resources: [], prompts: [] });

    const result = await useCase.execute(userContext(), { integrationId: INTEGRATION_ID });

    expect(result).toEqual({ tools: [], resources: [], prompts: [] });
  });

  it.each(accessRefusals)(
    "throws $refusal, naming the id",
    async ({ rows, integrationId, error, code, status }) => {
      const { deps, useCase } = setup(rows);

      const refused = await rejection(useCase.execute(userContext(), { integrationId }));

      expect(refused).toBeInstanceOf(error);
      expect(refused).toMatchObject({ code, status, integrationId });
      expect((refused as Error).message).toContain(integrationId);
      expect(deps.repository.findByIdCalls).toEqual([integrationId]);
      expect(deps.client.callCount).toBe(0);
    },
  );

  it.each([
    ["null", null],
    ["undefined", undefined],
  ])("throws UnauthorizedError (401) when the user is not authenticated (ctx %s)", async (_label, ctx) => {
    const { deps, useCase } = setup();

    const error = await rejection(useCase.execute(ctx, { integrationId: INTEGRATION_ID }));

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized:auth" });
    expect(deps.repository.findByIdCalls).toEqual([]);
  });

  it("throws UnauthorizedError when the context has no organization", async () => {
    const { deps, useCase } = setup();
    const ctx = { ...userContext(), orgId: "" } satisfies RequestContext;

    await expect(useCase.execute(ctx, { integrationId: INTEGRATION_ID })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(deps.repository.findByIdCalls).toEqual([]);
  });

  it("uses the organizationId of the request context, not one carried by the query", async () => {
    // The caller's own integration is found even though the query claims another organization.
    const own = setup();
    const foreignClaim = {
      integrationId: INTEGRATION_ID,
      organizationId: OTHER_ORG_ID,
      orgId: OTHER_ORG_ID,
    } as DiscoverMcpFeaturesQuery;
    await expect(own.useCase.execute(userContext(), foreignClaim)).resolves.toMatchObject({ tools: [] });
    expect(own.deps.client.listCapabilitiesCalls).toHaveLength(1);

    // Another organization's integration stays out of reach even when the query names that organization.
    const foreign = setup([makeIntegration({ organizationId: OTHER_ORG_ID })]);
    await expect(foreign.useCase.execute(userContext(), foreignClaim)).rejects.toBeInstanceOf(
      McpIntegrationAccessDeniedError,
    );
    expect(foreign.deps.client.callCount).toBe(0);
  });

  it("wraps an unexpected error thrown by the client in UnexpectedMcpError (500), keeping the cause", async () => {
    const { deps, useCase } = setup();
    const boom = new Error("socket exploded: internal detail");
    deps.client.onListFeatures = async () => {
      throw boom;
    };

    const error = await rejection(useCase.execute(userContext(), { integrationId: INTEGRATION_ID }));

    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({
      code: McpErrorCode.MCP_UNEXPECTED,
      status: 500,
      integrationId: INTEGRATION_ID,
      message: "Unexpected error occurred",
      cause: boom,
    });
  });

  it("wraps an error thrown by repository.findById in UnexpectedMcpError", async () => {
    const { deps, useCase } = setup();
    const dbDown = new Error("connection terminated");
    deps.repository.findByIdError = dbDown;

    const error = await rejection(useCase.execute(userContext(), { integrationId: INTEGRATION_ID }));

    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({ status: 500, integrationId: INTEGRATION_ID, cause: dbDown });
    expect(deps.client.callCount).toBe(0);
    expect(deps.repository.discoveries).toEqual([]);
  });

  it("wraps an error thrown by buildConnectionConfig in UnexpectedMcpError", async () => {
    const deps = createTestDeps();
    const badKey = new Error("unable to decrypt credentials");
    const useCase = new DiscoverMcpFeatures({
      ...deps,
      buildConnectionConfig: () => {
        throw badKey;
      },
    });

    const error = await rejection(useCase.execute(userContext(), { integrationId: INTEGRATION_ID }));

    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({ cause: badKey });
    expect(deps.client.callCount).toBe(0);
  });

  it.each([
    [
      "McpConnectionError",
      () => new McpConnectionError(INTEGRATION_ID, "Could not connect to mcp.example.com."),
    ],
    ["McpUnauthorizedError", () => new McpUnauthorizedError(INTEGRATION_ID, 401)],
  ])("re-throws a domain error (%s) from the client unchanged", async (_name, makeError) => {
    const { deps, useCase } = setup();
    const domainError: AppError = makeError();
    deps.client.onListFeatures = async () => {
      throw domainError;
    };

    const error = await rejection(useCase.execute(userContext(), { integrationId: INTEGRATION_ID }));

    expect(error).toBe(domainError);
  });

  it("logs the discovery request and its result with counts and duration", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => listed;

    await useCase.execute(userContext(), { integrationId: INTEGRATION_ID });

    expect(deps.logs.lines.map((line) => line.msg)).toEqual([
      "discoverMcpCapabilities",
      "discoverySucceeded",
    ]);
    const [started] = deps.logs.find("discoverMcpCapabilities");
    expect(started).toMatchObject({ level: "info", integrationId: INTEGRATION_ID, orgId: ORG_ID });
    const [succeeded] = deps.logs.find("discoverySucceeded");
    expect(succeeded).toMatchObject({
      level: "info",
      integrationId: INTEGRATION_ID,
      toolCount: 2,
      resourceCount: 1,
      promptCount: 1,
    });
    expect(succeeded?.durationMs).toEqual(expect.any(Number));
    expect(succeeded?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("logs discoveryFailed as a warning with the error code when discovery fails with a domain error", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => {
      throw new McpConnectionError(INTEGRATION_ID, "The MCP server did not answer within 5 s.");
    };

    await expect(useCase.execute(userContext(), { integrationId: INTEGRATION_ID })).rejects.toThrow();

    expect(deps.logs.find("discoverySucceeded")).toEqual([]);
    const [failed] = deps.logs.find("discoveryFailed");
    expect(failed).toMatchObject({
      level: "warn",
      integrationId: INTEGRATION_ID,
      code: McpErrorCode.MCP_CONNECTION_FAILED,
      message: "The MCP server did not answer within 5 s.",
    });
    expect(failed?.durationMs).toEqual(expect.any(Number));
  });

  it("logs discoveryFailed when an access check fails", async () => {
    const { deps, useCase } = setup([makeIntegration({ enabled: false })]);

    await expect(useCase.execute(userContext(), { integrationId: INTEGRATION_ID })).rejects.toThrow();

    expect(deps.logs.find("discoveryFailed")).toEqual([
      expect.objectContaining({ level: "warn", code: McpErrorCode.MCP_INTEGRATION_DISABLED }),
    ]);
  });

  it("logs an unexpected error at error level with the integration id", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => {
      throw new Error("kaboom");
    };

    await expect(useCase.execute(userContext(), { integrationId: INTEGRATION_ID })).rejects.toThrow(
      UnexpectedMcpError,
    );

    const errors = deps.logs.lines.filter((line) => line.level === "error");
    expect(errors).toEqual([
      expect.objectContaining({ integrationId: INTEGRATION_ID, err: { name: "Error", message: "kaboom" } }),
    ]);
    expect(deps.logs.find("discoverySucceeded")).toEqual([]);
  });

  it("records a successful discovery on the integration with the snapshot", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => listed;

    await useCase.execute(userContext(), { integrationId: INTEGRATION_ID });

    expect(deps.repository.discoveries).toEqual([
      {
        id: INTEGRATION_ID,
        outcome: { ok: true, latencyMs: expect.any(Number), discovered: listed },
      },
    ]);
    // The stored snapshot is the server's answer, without the integrationId the returned entities carry.
    const outcome = deps.repository.discoveries[0]?.outcome;
    if (!outcome?.ok) throw new Error("expected a successful outcome");
    expect(outcome.discovered.tools[0]).not.toHaveProperty("integrationId");
  });

  it("records a failed discovery on the integration with the domain error's message", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => {
      throw new McpConnectionError(
        INTEGRATION_ID,
        "Could not connect to mcp.example.com: connection refused.",
      );
    };

    await expect(useCase.execute(userContext(), { integrationId: INTEGRATION_ID })).rejects.toThrow();

    expect(deps.repository.discoveries).toEqual([
      {
        id: INTEGRATION_ID,
        outcome: {
          ok: false,
          latencyMs: expect.any(Number),
          error: "Could not connect to mcp.example.com: connection refused.",
        },
      },
    ]);
  });

  it("records nothing on the integration when the host is at its process limit, which says nothing about the server", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => {
      throw new McpProcessLimitError(INTEGRATION_ID, "server", 32);
    };

    const error = await rejection(useCase.execute(userContext(), { integrationId: INTEGRATION_ID }));

    expect(error).toBeInstanceOf(McpProcessLimitError);
    expect((error as Error).message).toBe(
      "This server already runs 32 local MCP server processes, the limit set by MCP_MAX_PROCESSES, and none is idle. Try again shortly, or ask the operator to raise the limit.",
    );
    expect(deps.repository.discoveries).toEqual([]);
  });

  it("records a failed discovery with a generic message, not the internals, when the client fails unexpectedly", async () => {
    const { deps, useCase } = setup();
    deps.client.onListFeatures = async () => {
      throw new Error("secret internal stack detail");
    };

    await expect(useCase.execute(userContext(), { integrationId: INTEGRATION_ID })).rejects.toThrow();

    expect(deps.repository.discoveries).toEqual([
      {
        id: INTEGRATION_ID,
        outcome: { ok: false, latencyMs: expect.any(Number), error: "Unexpected error occurred" },
      },
    ]);
  });

  it.each(failedAccessChecks(null))(
    "never calls the client nor records a discovery when an access check fails (%s)",
    async (_case, rows, ctx, id) => {
      const { deps, useCase } = setup(rows);

      await expect(useCase.execute(ctx, { integrationId: id })).rejects.toBeInstanceOf(AppError);

      expect(deps.client.callCount).toBe(0);
      expect(deps.configsBuiltFor).toEqual([]);
      expect(deps.repository.discoveries).toEqual([]);
    },
  );
});
