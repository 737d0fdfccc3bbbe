import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { AppError, UnauthorizedError } from "@/lib/errors";
import {
  McpConnectionError,
  McpErrorCode,
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpProcessLimitError,
  McpUpstreamError,
  UnexpectedMcpError,
} from "@/lib/mcp/errors";
import type { McpIntegration } from "@/lib/mcp/repository";
import type { ToolExecutionResult } from "@/lib/mcp/types";
import { ExecuteMcpTool, type ExecuteMcpToolCommand } from "@/lib/mcp/use-cases/execute-mcp-tool";
import {
  accessRefusals,
  createTestDeps,
  failedAccessChecks,
  INTEGRATION_ID,
  makeIntegration,
  ORG_ID,
  OTHER_ORG_ID,
  rejection,
  type TestDeps,
  testConnectionConfig,
  userContext,
} from "./fakes";

function setup(rows?: McpIntegration[]): { deps: TestDeps; useCase: ExecuteMcpTool } {
  const deps = createTestDeps(rows);
  return { deps, useCase: new ExecuteMcpTool(deps) };
}

function command(overrides: Partial<ExecuteMcpToolCommand> = {}): ExecuteMcpToolCommand {
  return {
    integrationId: INTEGRATION_ID,
    toolName: "search_docs",
    parameters: { query: "rate limits", limit: 3 },
    ...overrides,
  };
}

describe("ExecuteMcpTool", () => {
  it("executes the tool and returns its result, passing the client the tool name, parameters and config", async () => {
    const integration = makeIntegration();
    const { deps, useCase } = setup([integration]);
    const content: ContentBlock[] = [
      { type: "text", text: "Rate limits are 100 requests per minute." },
      { type: "resource_link", uri: "docs://limits", name: "limits" },
    ];
    deps.client.onExecuteTool = async () => ({
      isError: false,
      content,
      structuredContent: { hits: 1 },
    });

    const result = await useCase.execute(userContext(), command());

    expect(result).toEqual({ isError: false, content, structuredContent: { hits: 1 } });
    expect(deps.client.executeToolCalls).toEqual([
      {
        config: testConnectionConfig(integration),
        name: "search_docs",
        args: { query: "rate limits", limit: 3 },
      },
    ]);
    expect(deps.configsBuiltFor).toEqual([integration]);
  });

  it("returns the error result as is when the tool execution fails on the MCP server", async () => {
    const { deps, useCase } = setup();
    const failure: ToolExecutionResult = {
      isError: true,
      content: [{ type: "text", text: "Query must not be empty" }],
      errorMessage: "Query must not be empty",
    };
    deps.client.onExecuteTool = async () => failure;

    await expect(useCase.execute(userContext(), command())).resolves.toEqual(failure);
  });

  it("returns an error result instead of throwing when the client throws", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => {
      throw new Error("socket hang up");
    };

    await expect(useCase.execute(userContext(), command())).resolves.toEqual({
      isError: true,
      content: null,
      errorMessage: "socket hang up",
    });
  });

  it("returns an error result when the tool does not exist on the MCP server", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async (_config, name) => {
      throw new Error(`Tool ${name} not found`);
    };

    const result = await useCase.execute(userContext(), command({ toolName: "nope" }));

    expect(result).toEqual({ isError: true, content: null, errorMessage: "Tool nope not found" });
    expect(deps.client.executeToolCalls.map((call) => call.name)).toEqual(["nope"]);
  });

  it("returns an error result with the domain error's message, marked unavailable, when the client throws a connection error", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => {
      throw new McpConnectionError(INTEGRATION_ID, "The MCP server did not answer within 5 s.");
    };

    await expect(useCase.execute(userContext(), command())).resolves.toEqual({
      isError: true,
      content: null,
      errorMessage: "The MCP server did not answer within 5 s.",
      failure: { kind: "unavailable", state: undefined },
    });
  });

  it("returns the server's own MCP error as an error result that keeps it as sent", async () => {
    const { deps, useCase } = setup();
    const rpc = { code: -32042, message: "Open the link first.", data: { elicitations: [] } };
    deps.client.onExecuteTool = async () => {
      throw new McpUpstreamError(INTEGRATION_ID, rpc);
    };

    await expect(useCase.execute(userContext(), command())).resolves.toEqual({
      isError: true,
      content: null,
      errorMessage: "Open the link first.",
      failure: { kind: "upstream", rpc },
    });
  });

  it("throws McpProcessLimitError (503) instead of a result when no process may start for the server", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => {
      throw new McpProcessLimitError(INTEGRATION_ID, "organization", 8);
    };

    const error = await rejection(useCase.execute(userContext(), command()));

    expect(error).toBeInstanceOf(McpProcessLimitError);
    expect(error).toMatchObject({ status: 503, code: McpErrorCode.MCP_PROCESS_LIMIT });
    expect((error as Error).message).toBe(
      "This organization already runs 8 local MCP server processes, the limit set by MCP_MAX_PROCESSES_PER_ORG, and none is idle. Disable an integration or raise the limit.",
    );
  });

  it("returns a generic error result when the client throws something without a message", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => {
      throw "not an Error";
    };

    await expect(useCase.execute(userContext(), command())).resolves.toEqual({
      isError: true,
      content: null,
      errorMessage: "Tool execution failed",
    });
  });

  it.each(accessRefusals)(
    "throws $refusal, naming the id",
    async ({ rows, integrationId, error, code, status }) => {
      const { deps, useCase } = setup(rows);

      const refused = await rejection(useCase.execute(userContext(), command({ integrationId })));

      expect(refused).toBeInstanceOf(error);
      expect(refused).toMatchObject({ code, status, integrationId });
      expect((refused as Error).message).toContain(integrationId);
      expect(deps.client.callCount).toBe(0);
    },
  );

  it.each([
    ["null", null],
    ["undefined", undefined],
  ])("throws UnauthorizedError (401) when the user is not authenticated (ctx %s)", async (_label, ctx) => {
    const { deps, useCase } = setup();

    const error = await rejection(useCase.execute(ctx, command()));

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized:auth" });
    expect(deps.repository.findByIdCalls).toEqual([]);
    expect(deps.client.callCount).toBe(0);
  });

  it("uses the organizationId of the request context, not one carried by the command", async () => {
    const foreignClaim = {
      ...command(),
      organizationId: OTHER_ORG_ID,
      orgId: OTHER_ORG_ID,
    } as ExecuteMcpToolCommand;

    // The caller's own integration runs even though the command claims another organization.
    const own = setup();
    await expect(own.useCase.execute(userContext(), foreignClaim)).resolves.toMatchObject({ isError: false });
    expect(own.deps.client.executeToolCalls).toHaveLength(1);

    // Another organization's integration stays out of reach even when the command names that organization.
    const foreign = setup([makeIntegration({ organizationId: OTHER_ORG_ID })]);
    await expect(foreign.useCase.execute(userContext(), foreignClaim)).rejects.toBeInstanceOf(
      McpIntegrationAccessDeniedError,
    );
    expect(foreign.deps.client.callCount).toBe(0);

    // A context of the other organization reaches it.
    await expect(
      foreign.useCase.execute(userContext({ orgId: OTHER_ORG_ID }), command()),
    ).resolves.toMatchObject({ isError: false });
  });

  it("runs on the integration the caller already has without reading it again, checked the same way", async () => {
    const { deps, useCase } = setup([]);

    await expect(
      useCase.execute(userContext(), command({ integration: makeIntegration() })),
    ).resolves.toMatchObject({ isError: false });
    expect(deps.repository.findByIdCalls).toEqual([]);
    expect(deps.client.executeToolCalls).toHaveLength(1);

    await expect(
      useCase.execute(userContext(), command({ integration: makeIntegration({ enabled: false }) })),
    ).rejects.toBeInstanceOf(McpIntegrationDisabledError);
    await expect(
      useCase.execute(
        userContext(),
        command({ integration: makeIntegration({ organizationId: OTHER_ORG_ID }) }),
      ),
    ).rejects.toBeInstanceOf(McpIntegrationAccessDeniedError);
    expect(deps.client.executeToolCalls).toHaveLength(1);
  });

  it("wraps an error thrown by the repository in UnexpectedMcpError (500)", async () => {
    const { deps, useCase } = setup();
    const dbDown = new Error("connection terminated");
    deps.repository.findByIdError = dbDown;

    const error = await rejection(useCase.execute(userContext(), command()));

    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({
      code: McpErrorCode.MCP_UNEXPECTED,
      status: 500,
      integrationId: INTEGRATION_ID,
      message: "Unexpected error occurred",
      cause: dbDown,
    });
    expect(deps.client.callCount).toBe(0);
  });

  it("wraps an error thrown by buildConnectionConfig in UnexpectedMcpError (500)", async () => {
    const deps = createTestDeps();
    const badKey = new Error("unable to decrypt credentials");
    const useCase = new ExecuteMcpTool({
      ...deps,
      buildConnectionConfig: () => {
        throw badKey;
      },
    });

    const error = await rejection(useCase.execute(userContext(), command()));

    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({ status: 500, integrationId: INTEGRATION_ID, cause: badKey });
    expect(deps.client.callCount).toBe(0);
  });

  it("re-throws a domain error raised before the tool call unchanged", async () => {
    const deps = createTestDeps();
    const domainError = new McpConnectionError(INTEGRATION_ID, "stdio integrations are turned off");
    const useCase = new ExecuteMcpTool({
      ...deps,
      buildConnectionConfig: () => {
        throw domainError;
      },
    });

    await expect(useCase.execute(userContext(), command())).rejects.toBe(domainError);
  });

  it("logs the tool execution and its success with integrationId and tool", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => ({
      isError: false,
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    });

    await useCase.execute(userContext(), command());

    expect(deps.logs.lines.map((line) => line.msg)).toEqual(["executeMcpTool", "toolExecutionSucceeded"]);
    expect(deps.logs.find("executeMcpTool")).toEqual([
      expect.objectContaining({
        level: "debug",
        integrationId: INTEGRATION_ID,
        tool: "search_docs",
        orgId: ORG_ID,
      }),
    ]);
    const [succeeded] = deps.logs.find("toolExecutionSucceeded");
    expect(succeeded).toMatchObject({
      level: "debug",
      integrationId: INTEGRATION_ID,
      tool: "search_docs",
      contentCount: 2,
    });
    expect(succeeded?.durationMs).toEqual(expect.any(Number));
  });

  it("logs toolExecutionFailed as a warning when the server reports a tool error", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => ({ isError: true, content: [], errorMessage: "bad input" });

    await useCase.execute(userContext(), command());

    expect(deps.logs.find("toolExecutionSucceeded")).toEqual([]);
    expect(deps.logs.find("toolExecutionFailed")).toEqual([
      expect.objectContaining({
        level: "warn",
        integrationId: INTEGRATION_ID,
        tool: "search_docs",
        message: "bad input",
        durationMs: expect.any(Number),
      }),
    ]);
  });

  it("logs toolExecutionFailed as a warning when the client throws", async () => {
    const { deps, useCase } = setup();
    deps.client.onExecuteTool = async () => {
      throw new Error("Tool nope not found");
    };

    await useCase.execute(userContext(), command({ toolName: "nope" }));

    expect(deps.logs.find("toolExecutionFailed")).toEqual([
      expect.objectContaining({
        level: "warn",
        integrationId: INTEGRATION_ID,
        tool: "nope",
        message: "Tool nope not found",
      }),
    ]);
  });

  it("does not log the tool parameters", async () => {
    const { deps, useCase } = setup();

    await useCase.execute(userContext(), command({ parameters: { query: "very private question" } }));

    expect(JSON.stringify(deps.logs.lines)).not.toContain("very private question");
  });

  it("logs an unexpected error at error level with integrationId and tool", async () => {
    const { deps, useCase } = setup();
    deps.repository.findByIdError = new Error("connection terminated");

    await expect(useCase.execute(userContext(), command())).rejects.toThrow(UnexpectedMcpError);

    expect(deps.logs.lines.filter((line) => line.level === "error")).toEqual([
      expect.objectContaining({
        integrationId: INTEGRATION_ID,
        tool: "search_docs",
        err: { name: "Error", message: "connection terminated" },
      }),
    ]);
  });

  it.each(failedAccessChecks(undefined))(
    "never calls the client when an access check fails (%s)",
    async (_case, rows, ctx, id) => {
      const { deps, useCase } = setup(rows);

      await expect(useCase.execute(ctx, command({ integrationId: id }))).rejects.toBeInstanceOf(AppError);

      expect(deps.client.callCount).toBe(0);
      expect(deps.configsBuiltFor).toEqual([]);
    },
  );
});
