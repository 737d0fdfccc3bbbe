import { UnauthorizedError as SdkUnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import { McpError } from "../errors";
import { ConnectTimeoutError } from "./deadline";
import { PrivateNetworkError } from "./network-guard";
import { isStreamEndedError } from "./unanswered-guard";

/**
 * What a failed exchange with a server says about it, and about the request:
 * - `session-lost`: the server no longer knows our session (it restarted); it did not process the request;
 * - `refused`: nothing listens there; the request never reached a server;
 * - `dropped`: the connection or the answer's stream broke, or the process exited; the request may have run;
 * - `timeout`: no answer within the timeout; the request may have run;
 * - `not-mcp`: it answered, but not in MCP (garbage, an HTML error page, a wrong status);
 * - `unreachable`: the host is unknown, private, or the command does not exist;
 * - `unauthorized`: it refused the credentials;
 * - `answered`: it answered with an MCP error: it is up;
 * - `ours`: our own refusal or a domain error (a process limit, a cancelled call), which says nothing of the server;
 * - `other`: anything else that went wrong on the way.
 */
export type FailureKind =
  | "session-lost"
  | "refused"
  | "dropped"
  | "timeout"
  | "not-mcp"
  | "unreachable"
  | "unauthorized"
  | "answered"
  | "ours"
  | "other";

export interface Failure {
  kind: FailureKind;
  /** The cause in a few plain words, for the integration's state: "connection refused", "timed out after 30 s". */
  cause: string;
  /** The HTTP status the server answered with, if that was the failure. */
  status?: number;
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof PrivateNetworkError) return "PRIVATE";
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return undefined;
}

/** The SDK's own timeout (it carries the timeout it gave up after), not a server's error with the same code. */
const isOwnTimeout = (error: SdkMcpError) =>
  error.code === ErrorCode.RequestTimeout &&
  typeof (error.data as { timeout?: unknown })?.timeout === "number";

/** The SDK's own "the connection closed" (a stdio process that exited, say), not a server's error with that code. */
const isOwnClose = (error: SdkMcpError) =>
  error.code === ErrorCode.ConnectionClosed &&
  error.message === `MCP error ${ErrorCode.ConnectionClosed}: Connection closed`;

const RESETS = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "UND_ERR_CLOSED", "ECONNABORTED"]);

/** How an HTTP status that is not an MCP answer reads, and whether it means the session is gone. */
function httpFailure(status: number, text: string, carriedSession: boolean): Failure {
  // 404 is the specification's "session not found"; servers that predate it answer 400 or 410 naming the session.
  if (carriedSession && (status === 404 || ((status === 400 || status === 410) && /session/i.test(text))))
    return { kind: "session-lost", cause: "the server restarted and forgot our session", status };
  if (status === 401 || status === 403)
    return { kind: "unauthorized", cause: `refused the credentials (HTTP ${status})`, status };
  if (status === 429) return { kind: "not-mcp", cause: "too many requests (HTTP 429)", status };
  if (status >= 500) return { kind: "not-mcp", cause: `answered HTTP ${status} instead of MCP`, status };
  return { kind: "not-mcp", cause: `answered HTTP ${status}: it may not be an MCP endpoint`, status };
}

/**
 * Reads a failure thrown by the SDK, fetch or a child process. `carriedSession` says whether the request carried
 * an Mcp-Session-Id (only then can the server have forgotten it).
 */
export function failureOf(error: unknown, timeoutMs: number, carriedSession = false): Failure {
  if (error instanceof McpError) return { kind: "ours", cause: error.message };
  if (error instanceof SdkUnauthorizedError)
    return { kind: "unauthorized", cause: "refused the credentials (HTTP 401)" };
  if (error instanceof StreamableHTTPError) {
    if (error.code === -1) return { kind: "not-mcp", cause: "did not answer as an MCP server" };
    if (error.code === undefined) return { kind: "dropped", cause: "the connection broke" };
    return httpFailure(error.code, error.message, carriedSession);
  }
  const seconds = Math.round(timeoutMs / 1000);
  if (error instanceof ConnectTimeoutError || (error instanceof SdkMcpError && isOwnTimeout(error)))
    return { kind: "timeout", cause: `timed out after ${seconds} s` };
  if (isStreamEndedError(error))
    return {
      kind: "dropped",
      cause: "the server ended its answer before answering (it may have crashed or restarted)",
    };
  if (error instanceof SdkMcpError && isOwnClose(error))
    return { kind: "dropped", cause: "the server closed the connection (it may have crashed)" };
  if (error instanceof SdkMcpError) return { kind: "answered", cause: "answered with an error" };
  if (error instanceof Error && error.message === "Not connected")
    return { kind: "dropped", cause: "the server closed the connection (it may have crashed)" };
  const code = causeCode(error);
  if (code === "ECONNREFUSED") return { kind: "refused", cause: "connection refused" };
  if (code && RESETS.has(code))
    return { kind: "dropped", cause: "the server dropped the connection mid-call" };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return { kind: "unreachable", cause: "the host was not found" };
  if (code === "PRIVATE") return { kind: "unreachable", cause: "the address is private (not allowed)" };
  if (code === "ENOENT") return { kind: "unreachable", cause: "the command was not found" };
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT")
    return { kind: "timeout", cause: `timed out after ${seconds} s` };
  if (error instanceof SyntaxError || (error instanceof Error && error.name === "ZodError"))
    return { kind: "not-mcp", cause: "sent a response that is not valid MCP (JSON-RPC)" };
  if (error instanceof TypeError && /fetch failed/i.test(error.message))
    return { kind: "unreachable", cause: "could not connect" };
  return { kind: "other", cause: "the exchange with it failed" };
}

/** Whether the failure says the server is not answering (so it counts against its state). */
export function speaksOfTheServer(kind: FailureKind): boolean {
  return kind !== "answered" && kind !== "ours" && kind !== "unauthorized";
}
