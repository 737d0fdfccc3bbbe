import path from "node:path";
import { McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import {
  McpConnectionError,
  McpError,
  McpUnauthorizedError,
  McpUpstreamError,
  type UpstreamRpcError,
} from "../errors";
import type { McpConnectionConfig } from "../types";
import { ConnectTimeoutError } from "./deadline";
import { type Failure, failureOf } from "./failure-kind";
import { hideHostPaths } from "./host-paths";
import { PrivateNetworkError } from "./network-guard";

function findPrivateNetworkError(error: unknown): PrivateNetworkError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof PrivateNetworkError) return current;
    current = current.cause;
  }
  return undefined;
}

// A command is named by its program alone: where it lives on this host is nobody's business.
function where(config: McpConnectionConfig): string {
  return config.transport === "stdio"
    ? `the command "${config.displayName ?? path.basename(config.command)}"`
    : new URL(config.url).host;
}

/**
 * The error as the server sent it: the SDK's client prefixes its message with "MCP error <code>: ", once, which
 * is taken off again, so the message is the server's own.
 */
export function upstreamRpcError(error: SdkMcpError): UpstreamRpcError {
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return { code: error.code, message, ...(error.data !== undefined ? { data: error.data } : {}) };
}

/** The message of a failure that is not the server's answer, naming where, never a credential or a host path. */
function messageOf(error: unknown, failure: Failure, config: McpConnectionConfig): string {
  const at = where(config);
  switch (failure.kind) {
    case "refused":
      return `Could not connect to ${at}: connection refused.`;
    case "timeout":
      return error instanceof ConnectTimeoutError
        ? error.message
        : `The MCP server did not answer within ${Math.round(config.timeoutMs / 1000)} s.`;
    case "unreachable": {
      const privateNetwork = findPrivateNetworkError(error);
      if (privateNetwork) return privateNetwork.message;
      if (failure.cause === "the host was not found") return `Could not find the host ${at}.`;
      if (failure.cause === "the command was not found") return `Could not start ${at}: command not found.`;
      return `Could not connect to ${at}.`;
    }
    case "session-lost":
      return `${at} restarted and forgot our session; the next call opens a new one.`;
    case "dropped":
      return failure.cause.startsWith("the server")
        ? `The MCP server ${failure.cause.slice("the server ".length)}.`
        : `${at}: ${failure.cause}.`;
    case "not-mcp":
      if (failure.status !== undefined) return `${at} ${failure.cause}.`;
      if (failure.cause === "did not answer as an MCP server")
        return `${at} did not answer as an MCP server (${hideHostPaths((error as Error).message)}).`;
      return `${at} ${failure.cause}.`;
    default:
      return `Could not talk to ${at}: ${hideHostPaths(error instanceof Error ? error.message : String(error))}`;
  }
}

/**
 * Turns whatever the SDK, fetch or a child process threw into a domain error whose message tells an
 * administrator what went wrong, without internals: the server's own MCP error (kept as it sent it), refused
 * credentials, or a connection failure that says what happened.
 */
export function describeMcpFailure(
  error: unknown,
  config: McpConnectionConfig,
  failure = failureOf(error, config.timeoutMs),
): McpError {
  if (error instanceof McpError) return error;
  const id = config.integrationId;
  if (failure.kind === "unauthorized") return new McpUnauthorizedError(id, failure.status ?? 401);
  if (failure.kind === "answered" && error instanceof SdkMcpError) {
    const rpc = upstreamRpcError(error);
    // A local server's messages may name files of this host.
    if (config.transport === "stdio") rpc.message = hideHostPaths(rpc.message);
    return new McpUpstreamError(id, rpc, error);
  }
  return new McpConnectionError(id, messageOf(error, failure, config), error);
}
