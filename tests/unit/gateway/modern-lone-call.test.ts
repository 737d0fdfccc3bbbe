import { describe, expect, it } from "vitest";
import { loneModernToolsCall, mirrorsArguments } from "@/lib/gateway/modern-lone-call";

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { roots: {} },
};
const headers = (more: Record<string, string> = {}) =>
  new Headers({
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "echo",
    ...more,
  });
const body = (params: Record<string, unknown> = {}, message: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "echo", arguments: { message: "hi" }, _meta: envelope, ...params },
  ...message,
});

describe("which 2026-07-28 tools/call is answered without the SDK's handler", () => {
  it("takes a lone call that can only end in one result, without its envelope", () => {
    expect(loneModernToolsCall(headers(), body())).toEqual({
      id: 1,
      params: { name: "echo", arguments: { message: "hi" } },
    });
  });

  it.each([
    [
      "a client that can be asked (elicitation)",
      body({ _meta: { ...envelope, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } }),
    ],
    [
      "a client that can be asked (sampling)",
      body({ _meta: { ...envelope, "io.modelcontextprotocol/clientCapabilities": { sampling: {} } } }),
    ],
    [
      "a client that takes tasks",
      body({
        _meta: {
          ...envelope,
          "io.modelcontextprotocol/clientCapabilities": {
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
        },
      }),
    ],
    ["a log level", body({ _meta: { ...envelope, "io.modelcontextprotocol/logLevel": "info" } })],
    ["a progress token", body({ _meta: { ...envelope, progressToken: 1 } })],
    ["answers", body({ inputResponses: {} })],
    ["state", body({ requestState: "x" })],
    ["a task", body({ task: {} })],
    [
      "another revision",
      body({ _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2027-01-01" } }),
    ],
    ["no capabilities", body({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } })],
    [
      "a malformed client",
      body({ _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: 1 } } }),
    ],
    ["no name", body({ name: undefined })],
    ["a notification", body({}, { id: undefined })],
    ["a batch", [body()]],
  ])("leaves to the SDK a call with %s", (_case, message) => {
    expect(loneModernToolsCall(headers(), message)).toBeUndefined();
  });

  it.each([
    ["a name header for another tool", { "mcp-name": "other" }],
    ["another method header", { "mcp-method": "tools/list" }],
    ["another protocol version header", { "mcp-protocol-version": "2025-11-25" }],
  ])("leaves to the SDK a call with %s", (_case, more) => {
    expect(loneModernToolsCall(headers(more), body())).toBeUndefined();
  });

  it("tells a tool that mirrors an argument in a header", () => {
    expect(
      mirrorsArguments({
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
      }),
    ).toBe(true);
    expect(mirrorsArguments({ type: "object", properties: { region: { type: "string" } } })).toBe(false);
  });
});
