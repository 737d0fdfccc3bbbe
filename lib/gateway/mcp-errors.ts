import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";

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

/** A failure of our own (the database, a bug) as an MCP error that says what failed, never why; the cause is logged. */
export function internalError(error: unknown, what: string): McpError {
  if (error instanceof McpError) return error;
  logger.error(what, { err: error });
  return new McpError(ErrorCode.InternalError, `${what}; try again.`);
}
