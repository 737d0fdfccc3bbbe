import { ErrorCode as RpcErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { IntegrationState } from "./integration-state";

export const McpErrorCode = {
  MCP_INTEGRATION_NOT_FOUND: "not_found:mcp_integration",
  MCP_INTEGRATION_ACCESS_DENIED: "forbidden:mcp_integration",
  MCP_INTEGRATION_DISABLED: "bad_request:mcp_integration_disabled",
  MCP_UNAUTHORIZED: "unauthorized:mcp",
  MCP_CONNECTION_FAILED: "unavailable:mcp_connection",
  MCP_OAUTH_NOT_CONNECTED: "forbidden:mcp_oauth_not_connected",
  MCP_OAUTH_RECONNECT: "forbidden:mcp_oauth_reconnect",
  MCP_OAUTH_FAILED: "unavailable:mcp_oauth",
  MCP_PROCESS_LIMIT: "unavailable:mcp_process_limit",
  MCP_UNAVAILABLE: "unavailable:mcp_integration",
  MCP_CALL_INTERRUPTED: "unavailable:mcp_interrupted",
  MCP_UNEXPECTED: "internal:mcp",
} as const satisfies Record<string, ErrorCode>;

/** The base of the MCP domain errors; every one carries the integration it concerns. */
export class McpError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly integrationId?: string,
    cause?: unknown,
  ) {
    super(code, message, { cause });
    this.name = new.target.name;
  }
}

export class McpIntegrationNotFoundError extends McpError {
  constructor(integrationId: string) {
    super(
      McpErrorCode.MCP_INTEGRATION_NOT_FOUND,
      `MCP integration ${integrationId} was not found`,
      integrationId,
    );
  }
}

/** Another organization's integration; reported as 403 to the use cases, shown as not found by the routes. */
export class McpIntegrationAccessDeniedError extends McpError {
  constructor(integrationId: string) {
    super(
      McpErrorCode.MCP_INTEGRATION_ACCESS_DENIED,
      `MCP integration ${integrationId} does not belong to your organization`,
      integrationId,
    );
  }
}

export class McpIntegrationDisabledError extends McpError {
  constructor(integrationId: string) {
    super(
      McpErrorCode.MCP_INTEGRATION_DISABLED,
      `MCP integration ${integrationId} is disabled`,
      integrationId,
    );
  }
}

/** The MCP server refused our credentials (HTTP 401/403). */
export class McpUnauthorizedError extends McpError {
  constructor(integrationId: string, status: number) {
    super(
      McpErrorCode.MCP_UNAUTHORIZED,
      `The MCP server refused the credentials (HTTP ${status}). Check the token or headers of this integration.`,
      integrationId,
    );
  }
}

/** The server could not be reached, timed out, or did not speak MCP; the message says which. */
export class McpConnectionError extends McpError {
  constructor(integrationId: string, message: string, cause?: unknown) {
    super(McpErrorCode.MCP_CONNECTION_FAILED, message, integrationId, cause);
  }
}

/** An OAuth integration with no tokens for the caller: the organization's, or the user's own. */
export class McpOAuthNotConnectedError extends McpError {
  constructor(
    integrationId: string,
    name: string,
    readonly who: "organization" | "user" | "api-key",
  ) {
    const messages = {
      organization: `${name} is not connected yet: an admin connects it on its page under Integrations.`,
      user: `You have not connected your ${name} account yet: connect it on its page under Integrations.`,
      "api-key": `${name} connects each user's own account, and an API key belongs to no user: use it from the chat or the tool runner, or have an admin connect it once for the organization.`,
    };
    super(McpErrorCode.MCP_OAUTH_NOT_CONNECTED, messages[who], integrationId);
  }
}

/** The tokens stopped working (revoked, or the refresh was refused): someone must connect again. */
export class McpOAuthReconnectError extends McpError {
  constructor(integrationId: string, message: string) {
    super(McpErrorCode.MCP_OAUTH_RECONNECT, message, integrationId);
  }
}

/** The authorization server could not be reached or failed; nothing was lost and a later call may work. */
export class McpOAuthFailedError extends McpError {
  constructor(integrationId: string, message: string, cause?: unknown) {
    super(McpErrorCode.MCP_OAUTH_FAILED, message, integrationId, cause);
  }
}

/** Which cap on local server processes a new one would pass: the organization's, or the whole server's. */
export type McpProcessLimit = "organization" | "server";

/** Starting the integration's local (stdio) server would pass a process limit, and no idle process could make room. */
export class McpProcessLimitError extends McpError {
  constructor(
    integrationId: string,
    readonly limit: McpProcessLimit,
    readonly max: number,
  ) {
    const processes = `${max} local MCP server ${max === 1 ? "process" : "processes"}`;
    const messages = {
      organization: `This organization already runs ${processes}, the limit set by MCP_MAX_PROCESSES_PER_ORG, and none is idle. Disable an integration or raise the limit.`,
      server: `This server already runs ${processes}, the limit set by MCP_MAX_PROCESSES, and none is idle. Try again shortly, or ask the operator to raise the limit.`,
    };
    super(McpErrorCode.MCP_PROCESS_LIMIT, messages[limit], integrationId);
  }
}

/** What an MCP server answered a request with instead of a result: a JSON-RPC error, as it sent it. */
export interface UpstreamRpcError {
  code: number;
  message: string;
  data?: unknown;
}

// The HTTP status that says the most about an upstream error: the caller's arguments, something missing, or the
// server's own failure.
function upstreamErrorCode(code: number): ErrorCode {
  if (code === RpcErrorCode.InvalidParams || code === RpcErrorCode.InvalidRequest)
    return "bad_request:mcp_upstream";
  // -32002 is the specification's "resource not found".
  if (code === RpcErrorCode.MethodNotFound || code === -32002) return "not_found:mcp_upstream";
  return "bad_gateway:mcp_upstream";
}

/**
 * The server answered with an MCP (JSON-RPC) error: it is up and said no. Its code, message and data are kept as
 * it sent them, so MCP clients get them unchanged.
 */
export class McpUpstreamError extends McpError {
  constructor(
    integrationId: string,
    readonly rpc: UpstreamRpcError,
    cause?: unknown,
  ) {
    super(upstreamErrorCode(rpc.code), rpc.message, integrationId, cause);
  }
}

/** The integration's server is failing, so calls are refused at once until its next try. */
export class McpUnavailableError extends McpError {
  constructor(
    integrationId: string,
    readonly state: IntegrationState,
  ) {
    const wait = state.nextTryAt
      ? ` Calls resume with the next try in ${Math.max(1, Math.ceil((state.nextTryAt.getTime() - Date.now()) / 1000))} s.`
      : " Calls resume when it answers.";
    super(
      McpErrorCode.MCP_UNAVAILABLE,
      `The MCP server is ${state.state}: ${state.cause}.${wait}`,
      integrationId,
    );
  }
}

/** The call's session was closed by this app (the integration changed, was disabled or deleted, or the app stops). */
export class McpCallInterruptedError extends McpError {
  constructor(integrationId: string, reason: string) {
    super(McpErrorCode.MCP_CALL_INTERRUPTED, `The call was interrupted: ${reason}`, integrationId);
  }
}

export class UnexpectedMcpError extends McpError {
  constructor(message = "Unexpected error occurred", integrationId?: string, cause?: unknown) {
    super(McpErrorCode.MCP_UNEXPECTED, message, integrationId, cause);
  }
}
