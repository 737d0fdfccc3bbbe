import { UnauthorizedError as SdkUnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import { McpConnectionError, McpError, McpUnauthorizedError } from "../errors";
import type { McpConnectionConfig } from "../types";
import { ConnectTimeoutError } from "./connect";
import { PrivateNetworkError } from "./network-guard";

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
    if (current instanceof PrivateNetworkError) return "PRIVATE";
    current = current.cause;
  }
  return undefined;
}

function findPrivateNetworkError(error: unknown): PrivateNetworkError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof PrivateNetworkError) return current;
    current = current.cause;
  }
  return undefined;
}

function where(config: McpConnectionConfig): string {
  return config.transport === "stdio" ? `the command "${config.command}"` : new URL(config.url).host;
}

/**
 * Turns whatever the SDK, fetch or a child process threw into a domain error whose message tells an
 * administrator what went wrong, without internals.
 */
export function describeMcpFailure(error: unknown, config: McpConnectionConfig): McpError {
  if (error instanceof McpError) return error;
  const id = config.integrationId;
  const seconds = Math.round(config.timeoutMs / 1000);
  if (error instanceof SdkUnauthorizedError) return new McpUnauthorizedError(id, 401);
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401 || error.code === 403) return new McpUnauthorizedError(id, error.code);
    if (error.code === -1) {
      return new McpConnectionError(
        id,
        `${where(config)} did not answer as an MCP server (${error.message}).`,
        error,
      );
    }
    return new McpConnectionError(
      id,
      `${where(config)} answered HTTP ${error.code}: it may not be an MCP endpoint.`,
      error,
    );
  }
  const privateNetwork = findPrivateNetworkError(error);
  if (privateNetwork) return new McpConnectionError(id, privateNetwork.message, error);
  if (error instanceof ConnectTimeoutError) return new McpConnectionError(id, error.message, error);
  if (error instanceof SdkMcpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new McpConnectionError(id, `The MCP server did not answer within ${seconds} s.`, error);
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return new McpConnectionError(id, "The MCP server closed the connection (it may have crashed).", error);
    }
    return new McpConnectionError(id, `The MCP server answered with an error: ${error.message}`, error);
  }
  const code = causeCode(error);
  if (code === "ECONNREFUSED")
    return new McpConnectionError(id, `Could not connect to ${where(config)}: connection refused.`, error);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new McpConnectionError(id, `Could not find the host ${where(config)}.`, error);
  }
  if (code === "ENOENT")
    return new McpConnectionError(id, `Could not start ${where(config)}: command not found.`, error);
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") {
    return new McpConnectionError(id, `${where(config)} dropped the connection.`, error);
  }
  if (error instanceof SyntaxError || (error instanceof Error && error.name === "ZodError")) {
    return new McpConnectionError(
      id,
      `${where(config)} sent a response that is not valid MCP (JSON-RPC).`,
      error,
    );
  }
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return new McpConnectionError(id, `Could not connect to ${where(config)}.`, error);
  }
  return new McpConnectionError(
    id,
    `Could not talk to ${where(config)}: ${error instanceof Error ? error.message : String(error)}`,
    error,
  );
}
