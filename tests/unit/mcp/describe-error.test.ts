import { UnauthorizedError as SdkUnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ConnectTimeoutError } from "@/lib/mcp/client/connect";
import { describeMcpFailure } from "@/lib/mcp/client/describe-error";
import { failureOf } from "@/lib/mcp/client/failure-kind";
import { PrivateNetworkError } from "@/lib/mcp/client/network-guard";
import {
  McpConnectionError,
  McpErrorCode,
  McpIntegrationDisabledError,
  McpUnauthorizedError,
  McpUpstreamError,
} from "@/lib/mcp/errors";
import type { McpConnectionConfig } from "@/lib/mcp/types";
import { INTEGRATION_ID, ORG_ID } from "./fakes";

const BEARER_SECRET = "sk-live-bearer-7f3a9c";
const HEADER_SECRET = "hdr-secret-52be01";

const httpConfig: McpConnectionConfig = {
  integrationId: INTEGRATION_ID,
  orgId: ORG_ID,
  timeoutMs: 5_000,
  transport: "streamable-http",
  url: "https://mcp.example.com/mcp",
  headers: { Authorization: `Bearer ${BEARER_SECRET}`, "X-Api-Key": HEADER_SECRET },
  allowPrivateNetwork: false,
};

const stdioConfig: McpConnectionConfig = {
  integrationId: INTEGRATION_ID,
  orgId: ORG_ID,
  timeoutMs: 5_000,
  transport: "stdio",
  command: "mcp-docs-server",
  args: ["--token", BEARER_SECRET],
  env: { API_KEY: HEADER_SECRET },
};

function errnoError(code: string, message = code): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** fetch's own shape for network failures: a TypeError whose cause carries the errno code. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

describe("describeMcpFailure", () => {
  it.each([401, 403])("turns a Streamable HTTP %i into McpUnauthorizedError", (status) => {
    const error = describeMcpFailure(new StreamableHTTPError(status, "Unauthorized"), httpConfig);

    expect(error).toBeInstanceOf(McpUnauthorizedError);
    expect(error).toMatchObject({
      code: McpErrorCode.MCP_UNAUTHORIZED,
      status: 401,
      integrationId: INTEGRATION_ID,
    });
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it("turns the SDK's UnauthorizedError into McpUnauthorizedError (HTTP 401)", () => {
    const error = describeMcpFailure(new SdkUnauthorizedError("no token"), httpConfig);

    expect(error).toBeInstanceOf(McpUnauthorizedError);
    expect(error.message).toContain("HTTP 401");
  });

  it("turns a Streamable HTTP 404 into McpConnectionError mentioning HTTP 404 and the host", () => {
    const cause = new StreamableHTTPError(404, "Not Found");
    const error = describeMcpFailure(cause, httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({
      code: McpErrorCode.MCP_CONNECTION_FAILED,
      status: 503,
      integrationId: INTEGRATION_ID,
      cause,
    });
    expect(error.message).toContain("HTTP 404");
    expect(error.message).toContain("mcp.example.com");
  });

  it("says the server did not answer as MCP for a Streamable HTTP error without status (-1)", () => {
    const error = describeMcpFailure(new StreamableHTTPError(-1, "Unexpected content type"), httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toMatch(/did not answer as an MCP server/);
  });

  it.each([
    [5_000, "5"],
    [30_000, "30"],
  ])(
    "says the server did not answer within the timeout for an SDK RequestTimeout (%i ms)",
    (timeoutMs, seconds) => {
      // As the SDK's client makes it: with the timeout it gave up after.
      const error = describeMcpFailure(
        new SdkMcpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: timeoutMs }),
        { ...httpConfig, timeoutMs },
      );

      expect(error).toBeInstanceOf(McpConnectionError);
      expect(error.message).toContain(`did not answer within ${seconds} s`);
    },
  );

  it("says the server closed the connection for an SDK ConnectionClosed", () => {
    const error = describeMcpFailure(
      new SdkMcpError(ErrorCode.ConnectionClosed, "Connection closed"),
      httpConfig,
    );

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toContain("closed the connection");
  });

  it("keeps the server's own MCP error as it sent it: code, message without a repeated prefix, and data", () => {
    // The server's SDK prefixed its message once; the client's SDK prefixes it again on the way in.
    const sent = "MCP error -32602: Invalid arguments for prompt args-prompt";
    const error = describeMcpFailure(
      new SdkMcpError(ErrorCode.InvalidParams, sent, { argument: "city" }),
      httpConfig,
    );

    expect(error).toBeInstanceOf(McpUpstreamError);
    expect((error as McpUpstreamError).rpc).toEqual({
      code: ErrorCode.InvalidParams,
      message: sent,
      data: { argument: "city" },
    });
    expect(error.message).toBe(sent);
    expect(error).toMatchObject({ status: 400, code: "bad_request:mcp_upstream" });
  });

  it.each([
    [ErrorCode.UrlElicitationRequired, 502],
    [ErrorCode.MethodNotFound, 404],
    [-32002, 404],
    [ErrorCode.InternalError, 502],
  ])("answers an upstream MCP error %i with HTTP %i", (code, status) => {
    expect(describeMcpFailure(new SdkMcpError(code, "no"), httpConfig).status).toBe(status);
  });

  it("hides this host's folders in a local server's error message", () => {
    const error = describeMcpFailure(
      new SdkMcpError(ErrorCode.InternalError, `ENOENT: no such file, open '${process.cwd()}/x.jsonl'`),
      stdioConfig,
    );

    expect(error.message).toBe("ENOENT: no such file, open '<app folder>/x.jsonl'");
  });

  it.each([
    [400, "Bad Request: No valid session ID provided"],
    [404, "Session not found"],
  ])(
    "says the server forgot the session when it answers %i to a request that carried one",
    (status, text) => {
      const answer = new StreamableHTTPError(
        status,
        `Error POSTing to endpoint: {"error":{"message":"${text}"}}`,
      );

      expect(failureOf(answer, 5_000, true).kind).toBe("session-lost");
      expect(failureOf(answer, 5_000, false).kind).toBe("not-mcp");
      expect(describeMcpFailure(answer, httpConfig, failureOf(answer, 5_000, true)).message).toBe(
        "mcp.example.com restarted and forgot our session; the next call opens a new one.",
      );
    },
  );

  it("does not take a 400 that is not about the session for a forgotten session", () => {
    expect(failureOf(new StreamableHTTPError(400, "Bad Request: invalid JSON"), 5_000, true).kind).toBe(
      "not-mcp",
    );
  });

  it.each([502, 503])("says an HTTP %i is not an MCP answer, without blaming the endpoint", (status) => {
    const error = describeMcpFailure(new StreamableHTTPError(status, "<html>"), httpConfig);

    expect(error.message).toBe(`mcp.example.com answered HTTP ${status} instead of MCP.`);
  });

  it("takes the server's own error with the connection-closed code for its answer, not a closed connection", () => {
    const error = describeMcpFailure(new SdkMcpError(ErrorCode.ConnectionClosed, "Bad Request"), httpConfig);

    expect(error).toBeInstanceOf(McpUpstreamError);
  });

  it("says the connection was refused when fetch fails with ECONNREFUSED", () => {
    const error = describeMcpFailure(fetchFailed(errnoError("ECONNREFUSED", "x")), httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toContain("connection refused");
    expect(error.message).toContain("mcp.example.com");
  });

  it.each(["ENOTFOUND", "EAI_AGAIN"])("says the host could not be found when fetch fails with %s", (code) => {
    const error = describeMcpFailure(fetchFailed(errnoError(code)), httpConfig);

    expect(error.message).toContain("Could not find the host mcp.example.com");
  });

  it("says the connection was dropped for ECONNRESET", () => {
    const error = describeMcpFailure(fetchFailed(errnoError("ECONNRESET")), httpConfig);

    expect(error.message).toContain("dropped the connection");
  });

  it("says the command was not found when a stdio server cannot start (ENOENT), naming only the command", () => {
    const error = describeMcpFailure(errnoError("ENOENT", "spawn mcp-docs-server ENOENT"), stdioConfig);

    expect(error.message).toBe('Could not start the command "mcp-docs-server": command not found.');
    // Named by its program, not by where it lives on this host; a bundled server by its package.
    const installed = { ...stdioConfig, command: "/opt/servers/bin/mcp-docs-server" };
    expect(describeMcpFailure(errnoError("ENOENT"), installed).message).toBe(
      'Could not start the command "mcp-docs-server": command not found.',
    );
    const bundled = {
      ...stdioConfig,
      command: process.execPath,
      displayName: "@modelcontextprotocol/server-memory",
    };
    expect(describeMcpFailure(errnoError("ENOENT"), bundled).message).toBe(
      'Could not start the command "@modelcontextprotocol/server-memory": command not found.',
    );
  });

  it("says the response is not valid MCP for a SyntaxError", () => {
    const error = describeMcpFailure(new SyntaxError("Unexpected token < in JSON at position 0"), httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toContain("not valid MCP");
  });

  it("uses the PrivateNetworkError's message when it is the cause of a fetch failure", () => {
    const privateNetwork = new PrivateNetworkError("internal.example.com", "10.0.0.5");
    const error = describeMcpFailure(fetchFailed(privateNetwork), httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toBe(privateNetwork.message);
    expect(error.message).toContain("MCP_ALLOW_PRIVATE_NETWORKS");
  });

  it("uses the PrivateNetworkError's message when it is thrown directly", () => {
    const privateNetwork = new PrivateNetworkError("169.254.169.254", "169.254.169.254");

    expect(describeMcpFailure(privateNetwork, httpConfig).message).toBe(privateNetwork.message);
  });

  it("uses the message of a connect timeout", () => {
    const error = describeMcpFailure(new ConnectTimeoutError("Timed out connecting after 5 s."), httpConfig);

    expect(error.message).toBe("Timed out connecting after 5 s.");
  });

  it("returns a domain error unchanged", () => {
    const domain = new McpIntegrationDisabledError(INTEGRATION_ID);

    expect(describeMcpFailure(domain, httpConfig)).toBe(domain);
  });

  it("describes anything else as a connection error carrying the integration id and the original cause", () => {
    const cause = new Error("weird failure");
    const error = describeMcpFailure(cause, httpConfig);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ integrationId: INTEGRATION_ID, cause });
    expect(error.message).toContain("weird failure");
  });

  it("never puts header values, credentials in the URL or stdio secrets into its messages", () => {
    const urlWithSecrets: McpConnectionConfig = {
      ...httpConfig,
      url: `https://svc:${HEADER_SECRET}@mcp.example.com/mcp?token=${BEARER_SECRET}`,
    };
    const failures: unknown[] = [
      new StreamableHTTPError(401, "Unauthorized"),
      new StreamableHTTPError(404, "Not Found"),
      new StreamableHTTPError(500, "Internal Server Error"),
      new StreamableHTTPError(-1, "Unexpected content type"),
      new SdkUnauthorizedError("no token"),
      new SdkMcpError(ErrorCode.RequestTimeout, "Request timed out"),
      new SdkMcpError(ErrorCode.ConnectionClosed, "Connection closed"),
      fetchFailed(errnoError("ECONNREFUSED")),
      fetchFailed(errnoError("ENOTFOUND")),
      fetchFailed(errnoError("ECONNRESET")),
      fetchFailed(new PrivateNetworkError("mcp.example.com", "127.0.0.1")),
      new SyntaxError("Unexpected end of JSON input"),
      new TypeError("fetch failed"),
      new Error("something else"),
    ];
    for (const config of [httpConfig, urlWithSecrets, stdioConfig]) {
      for (const failure of [...failures, errnoError("ENOENT")]) {
        const { message } = describeMcpFailure(failure, config);
        expect(message, `${config.transport}: ${String(failure)}`).not.toContain(BEARER_SECRET);
        expect(message, `${config.transport}: ${String(failure)}`).not.toContain(HEADER_SECRET);
      }
    }
  });
});
