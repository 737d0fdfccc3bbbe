import { CallToolRequestSchema, CallToolResultSchema } from "@modelcontextprotocol/core";
import {
  type CallToolRequest,
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type RequestId,
} from "@modelcontextprotocol/server";
import { jsonRpcAnswer, loneRequest } from "./lone-request";
import { internalError } from "./mcp-errors";

/** A lone tools/call that the SDK's stateless transport and server would answer plainly (see loneRequest). */
export function loneToolsCall(
  headers: Headers,
  body: unknown,
): { id: RequestId; params: CallToolRequest["params"] } | undefined {
  const message = loneRequest(headers, body, "tools/call");
  if (!message) return undefined;
  // Invalid params are the SDK server's to refuse, with its message.
  const request = CallToolRequestSchema.safeParse(body);
  return request.success ? { id: message.id, params: request.data.params } : undefined;
}

/** A handler's failure as the SDK's server reports it (anything but an MCP error is logged, not told). */
export function errorOf(error: unknown) {
  const { code, message, data } = internalError(error, "The tool call failed");
  return {
    code: Number.isSafeInteger(code) ? code : ProtocolErrorCode.InternalError,
    message: message ?? "Internal error",
    ...(data !== undefined ? { data } : {}),
  };
}

/** A tools/call's JSON-RPC answer: its result, or its failure. */
export type ToolsCallMessage =
  | { result: object; jsonrpc: "2.0"; id: RequestId }
  | { jsonrpc: "2.0"; id: RequestId; error: ReturnType<typeof errorOf> };

/**
 * The JSON-RPC answer to a tools/call as the SDK's server makes it: the result checked and normalized by the SDK's
 * own schema, or the failure as its error.
 */
export async function toolsCallMessage(
  id: RequestId,
  call: () => Promise<CallToolResult>,
  // What a revision adds to the checked result (2026-07-28: its result type and the server's info).
  stamp: (result: CallToolResult) => object = (result) => result,
): Promise<ToolsCallMessage> {
  try {
    const result = CallToolResultSchema.safeParse(await call());
    if (!result.success)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid tools/call result: ${result.error.message}`,
      );
    return { result: stamp(result.data), jsonrpc: "2.0", id };
  } catch (error) {
    return { jsonrpc: "2.0", id, error: errorOf(error) };
  }
}

/**
 * The answer to a lone tools/call without building an SDK server and transport for it: byte for byte what they
 * send (JSON response mode, no session).
 */
export async function toolsCallAnswer(
  id: RequestId,
  call: () => Promise<CallToolResult>,
  stamp?: (result: CallToolResult) => object,
): Promise<Response> {
  return jsonRpcAnswer(JSON.stringify(await toolsCallMessage(id, call, stamp)));
}
