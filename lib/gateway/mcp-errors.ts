import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { McpUpstreamError, type UpstreamRpcError } from "@/lib/mcp/errors";

export function invalidParams(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/**
 * The upstream server's own MCP error, for the client exactly as the server sent it: code, message and data. (The
 * SDK's McpError prefixes what it is given; the message is set back to the server's.)
 */
export function passedThrough(rpc: UpstreamRpcError): McpError {
  const error = new McpError(rpc.code, rpc.message, rpc.data);
  error.message = rpc.message;
  return error;
}

/**
 * Upstream failures in a resource read or prompt become MCP errors with the message, never internals; the
 * server's own MCP error is passed through unchanged.
 */
export function upstreamError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof McpUpstreamError) return passedThrough(error.rpc);
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
