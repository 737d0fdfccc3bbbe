import type { RequestContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import {
  McpCallInterruptedError,
  McpConnectionError,
  McpProcessLimitError,
  McpUnavailableError,
  McpUpstreamError,
  UnexpectedMcpError,
} from "../errors";
import type { CatalogIntegration } from "../repository";
import type { McpClientPort, ToolExecutionResult } from "../types";
import { loadAccessibleIntegration, type McpUseCaseDeps } from "./check-integration-access";

export interface ExecuteMcpToolCommand {
  integrationId: string;
  /** The integration, when the caller has it already: it is not read again. */
  integration?: CatalogIntegration;
  toolName: string;
  parameters: Record<string, unknown>;
  signal?: AbortSignal;
  /** The caller's own session with per-client state (see McpConnectionConfig.sessionKey). */
  upstreamSession?: string;
}

/** Why a call got no result from the server, for the surfaces that answer each case their own way. */
function failureOf(
  error: unknown,
  client: McpClientPort,
  integrationId: string,
): ToolExecutionResult["failure"] {
  if (error instanceof McpUpstreamError) return { kind: "upstream", rpc: error.rpc };
  if (error instanceof McpUnavailableError) return { kind: "unavailable", state: error.state };
  if (error instanceof McpConnectionError || error instanceof McpCallInterruptedError)
    return { kind: "unavailable", state: client.stateOf?.(integrationId) };
  return undefined;
}

export type ExecuteMcpToolDeps = McpUseCaseDeps;

/**
 * Calls a tool on an integration's MCP server. Access problems and a full process limit throw; anything that goes
 * wrong with the tool itself comes back as an error result, so the LLM can read it and explain or recover.
 */
export class ExecuteMcpTool {
  constructor(private readonly deps: ExecuteMcpToolDeps) {}

  async execute(
    ctx: RequestContext | null | undefined,
    command: ExecuteMcpToolCommand,
  ): Promise<ToolExecutionResult> {
    const { logger, repository, client } = this.deps;
    const started = performance.now();
    const fields = { integrationId: command.integrationId, tool: command.toolName, orgId: ctx?.orgId };
    // Debug: every call already gets one "tool call" line with its outcome and latency, and one request line.
    logger.debug("executeMcpTool", fields);
    try {
      const integration = await loadAccessibleIntegration(
        ctx,
        repository,
        command.integrationId,
        command.integration,
      );
      const config = this.deps.buildConnectionConfig(integration, ctx, {
        sessionKey: command.upstreamSession,
      });
      try {
        const result = await client.executeTool(config, command.toolName, command.parameters, {
          signal: command.signal,
        });
        const durationMs = Math.round(performance.now() - started);
        if (result.isError) {
          logger.warn("toolExecutionFailed", { ...fields, durationMs, message: result.errorMessage });
        } else {
          logger.debug("toolExecutionSucceeded", {
            ...fields,
            durationMs,
            contentCount: result.content?.length ?? 0,
          });
        }
        return result;
      } catch (toolError) {
        // The tool never ran: the host has no room for its server, a refusal the caller hears as such (a 503).
        if (toolError instanceof McpProcessLimitError) throw toolError;
        const errorMessage =
          toolError instanceof Error && toolError.message ? toolError.message : "Tool execution failed";
        logger.warn("toolExecutionFailed", {
          ...fields,
          durationMs: Math.round(performance.now() - started),
          message: errorMessage,
        });
        // A call its caller cancelled failed for no fault of the server.
        const failure = command.signal?.aborted ? undefined : failureOf(toolError, client, integration.id);
        return { isError: true, content: null, errorMessage, ...(failure ? { failure } : {}) };
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      logger.error("Unexpected error executing tool", { ...fields, err: error });
      throw new UnexpectedMcpError("Unexpected error occurred", command.integrationId, error);
    }
  }
}
