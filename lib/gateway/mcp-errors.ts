import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { McpUpstreamError, type UpstreamRpcError } from "@/lib/mcp/errors";
import { upstreamJsonRpcError } from "./upstream-bridge";

export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** The upstream server's own MCP error, for the client exactly as the server sent it: code, message and data. */
export function passedThrough(rpc: UpstreamRpcError): ProtocolError {
  return new ProtocolError(rpc.code, rpc.message, rpc.data);
}

/** A resource that is not there: invalid params naming its URI in the error's data, as the specification asks. */
export function resourceNotFound(uri: string): ProtocolError {
  return new ResourceNotFoundError(uri);
}

/**
 * Upstream failures in a resource read, a prompt or a completion become MCP errors: the upstream server's own
 * JSON-RPC error as it sent it (code, message, data), or what went wrong reaching it, never internals.
 */
export function upstreamError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof McpUpstreamError) return passedThrough(error.rpc);
  const answered = upstreamJsonRpcError(error);
  if (answered) return passedThrough(answered);
  if (error instanceof AppError && error.type !== "internal")
    return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  return new ProtocolError(ProtocolErrorCode.InternalError, "The integration failed to answer.");
}

/** A failure of our own (the database, a bug) as an MCP error that says what failed, never why; the cause is logged. */
export function internalError(error: unknown, what: string): ProtocolError {
  if (error instanceof ProtocolError) return error;
  logger.error(what, { err: error });
  return new ProtocolError(ProtocolErrorCode.InternalError, `${what}; try again.`);
}
