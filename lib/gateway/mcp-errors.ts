import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";

export function invalidParams(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/** Upstream failures in a resource read or prompt become MCP errors with the message, never internals. */
export function upstreamError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof AppError && error.type !== "internal")
    return new McpError(ErrorCode.InternalError, error.message);
  return new McpError(ErrorCode.InternalError, "The integration failed to answer.");
}
