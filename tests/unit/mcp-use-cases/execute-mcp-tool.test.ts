import { beforeEach, describe, expect, it } from "vitest";
import { UnauthorizedError } from "@/lib/errors";
import {
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpIntegrationNotFoundError,
  UnexpectedMcpError,
} from "@/lib/mcp/errors";
import { ExecuteMcpTool } from "@/lib/mcp/use-cases/execute-mcp-tool";
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
let buildConnectionConfig = buildConfig;
let useCase: ExecuteMcpTool;

beforeEach(() => {
  repository = new FakeRepository();
  client = new FakeClient();
  log = collectingLogger();
  buildConnectionConfig = buildConfig;
  useCase = new ExecuteMcpTool({
    repository,
    client,
    buildConnectionConfig: (row) => buildConnectionConfig(row),
    logger: log.logger,
  });
});

const command = { integrationId: INTEGRATION_ID, toolName: "search", parameters: { q: "routers" } };
const execute = (ctx = ctxA) => useCase.execute(ctx, command);

describe("ExecuteMcpTool", () => {
  it("executes the tool and returns its result", async () => {
    client.execution = async () => ({ isError: false, content: [{ type: "text", text: "3 results" }] });
    expect(await execute()).toEqual({ isError: false, content: [{ type: "text", text: "3 results" }] });
    expect(client.calls[0]).toMatchObject({ method: "executeTool", args: ["search", { q: "routers" }] });
  });

  it("returns an error result when the tool fails on the MCP server", async () => {
    client.execution = async () => ({
      isError: true,
      content: [{ type: "text", text: "quota exceeded" }],
      errorMessage: "quota exceeded",
    });
    expect(await execute()).toMatchObject({ isError: true, errorMessage: "quota exceeded" });
  });

  it("returns an error result, without throwing, when the tool does not exist on the MCP server", async () => {
    client.execution = async (name) => {
      throw new Error(`Tool ${name} not found`);
    };
    expect(await execute()).toEqual({ isError: true, content: null, errorMessage: "Tool search not found" });
  });

  it("returns an error result when the server cannot be reached", async () => {
    client.execution = async () => {
      throw new Error("");
    };
    expect(await execute()).toEqual({ isError: true, content: null, errorMessage: "Tool execution failed" });
  });

  it("throws McpIntegrationNotFoundError when the integration does not exist", async () => {
    repository.rows.length = 0;
    await expect(execute()).rejects.toBeInstanceOf(McpIntegrationNotFoundError);
  });

  it("throws McpIntegrationAccessDeniedError when the integration belongs to another organization", async () => {
    repository.rows[0] = integrationRow({ organizationId: ORG_B });
    await expect(execute()).rejects.toBeInstanceOf(McpIntegrationAccessDeniedError);
    expect(client.calls).toHaveLength(0);
  });

  it("throws McpIntegrationDisabledError when the integration is disabled", async () => {
    repository.rows[0] = integrationRow({ enabled: false });
    await expect(execute()).rejects.toBeInstanceOf(McpIntegrationDisabledError);
    expect(client.calls).toHaveLength(0);
  });

  it("throws UnauthorizedError when no user is authenticated", async () => {
    await expect(useCase.execute(null, command)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("uses the organization from the request context, not from the command", async () => {
    const sneaky = { ...command, organizationId: ORG_B } as typeof command;
    await expect(useCase.execute(ctxA, sneaky)).resolves.toMatchObject({ isError: false });
    await expect(useCase.execute({ ...ctxA, orgId: ORG_B }, command)).rejects.toBeInstanceOf(
      McpIntegrationAccessDeniedError,
    );
  });

  it("wraps unexpected errors in UnexpectedMcpError", async () => {
    repository.findByIdError = new Error("db down");
    await expect(execute()).rejects.toBeInstanceOf(UnexpectedMcpError);
    repository.findByIdError = undefined;
    buildConnectionConfig = () => {
      throw new Error("cannot decrypt");
    };
    const error = await execute().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedMcpError);
    expect(error).toMatchObject({ status: 500, message: "Unexpected error occurred" });
  });

  it("logs the execution and its result", async () => {
    await execute();
    expect(log.lines[0]).toMatchObject({
      msg: "executeMcpTool",
      integrationId: INTEGRATION_ID,
      tool: "search",
    });
    expect(log.lines[1]).toMatchObject({ msg: "toolExecutionSucceeded", tool: "search" });
    client.execution = async () => {
      throw new Error("boom");
    };
    await execute();
    expect(log.lines.at(-1)).toMatchObject({ msg: "toolExecutionFailed", level: "warn", message: "boom" });
  });
});
