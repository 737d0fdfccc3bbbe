import {
  CallToolRequestSchema,
  ClientCapabilitiesSchema,
  ImplementationSchema,
} from "@modelcontextprotocol/core";
import {
  type CallToolRequestParams,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type Implementation,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type RequestId,
  SERVER_INFO_META_KEY,
} from "@modelcontextprotocol/server";
import { jsonRpcAnswer } from "./lone-request";
import { toolsCallMessage } from "./tools-call-answer";

const REVISION = "2026-07-28";
const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS = new Set(["name", "arguments", "_meta"]);
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
]);
// What a client that can be asked something declares: its calls may answer input_required, or be tasks.
const ASKABLE = ["elicitation", "sampling", "extensions"];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const only = (value: Record<string, unknown>, allowed: Set<string>) =>
  Object.keys(value).every((key) => allowed.has(key));

/**
 * A lone 2026-07-28 tools/call that the SDK's handler would answer with one JSON result and nothing before it:
 * its routing headers agree with its body, its envelope is whole and valid, it asks for no progress or log
 * messages, its client can be asked nothing (no elicitation, sampling or extension declared), and it carries no
 * answers, state or task. Anything else gives undefined and is left to the SDK.
 */
export function loneModernToolsCall(
  headers: Headers,
  body: unknown,
): { id: RequestId; params: CallToolRequestParams } | undefined {
  if (!isObject(body) || body.method !== "tools/call" || body.jsonrpc !== "2.0" || !only(body, MESSAGE_KEYS))
    return undefined;
  const { id, params } = body;
  if ((typeof id !== "string" && typeof id !== "number") || !isObject(params) || !only(params, PARAM_KEYS))
    return undefined;
  const meta = params._meta;
  if (!isObject(meta) || !only(meta, ENVELOPE_KEYS) || meta[PROTOCOL_VERSION_META_KEY] !== REVISION)
    return undefined;
  if (
    headers.get("mcp-protocol-version") !== REVISION ||
    headers.get("mcp-method") !== "tools/call" ||
    headers.get("mcp-name") !== params.name
  )
    return undefined;
  const capabilities = ClientCapabilitiesSchema.safeParse(meta[CLIENT_CAPABILITIES_META_KEY]);
  if (!capabilities.success || ASKABLE.some((capability) => capability in capabilities.data))
    return undefined;
  if (CLIENT_INFO_META_KEY in meta && !ImplementationSchema.safeParse(meta[CLIENT_INFO_META_KEY]).success)
    return undefined;
  const { _meta: _envelope, ...call } = params;
  const request = CallToolRequestSchema.safeParse({ method: "tools/call", params: call });
  return request.success ? { id, params: request.data.params } : undefined;
}

/**
 * The answer to a lone 2026-07-28 tools/call without building the SDK's handler and server for it: byte for byte
 * what they send (one JSON result stamped with its result type and the server's identity; a failure as the SDK's
 * server reports it), the result checked by the SDK's own schema. A call refused because the client did not
 * declare a capability it needs (-32021) answers 400, as the revision requires of HTTP and the SDK does.
 */
export async function modernToolsCallAnswer(
  id: RequestId,
  server: Implementation,
  call: () => Promise<CallToolResult>,
): Promise<Response> {
  const message = await toolsCallMessage(id, call, (result) => ({
    ...result,
    resultType: "complete",
    _meta: { [SERVER_INFO_META_KEY]: server },
  }));
  const refused =
    "error" in message && message.error.code === ProtocolErrorCode.MissingRequiredClientCapability;
  return jsonRpcAnswer(JSON.stringify(message), refused ? 400 : 200);
}

// Tools whose arguments go in headers too (SEP-2243): the SDK checks those headers, so their calls are its own.
const declaresHeaders = new WeakMap<object, boolean>();

/** Whether a tool's input schema marks an argument to be mirrored in an Mcp-Param header. */
export function mirrorsArguments(inputSchema: Record<string, unknown>): boolean {
  let found = declaresHeaders.get(inputSchema);
  if (found === undefined) {
    const properties = isObject(inputSchema.properties) ? Object.values(inputSchema.properties) : [];
    found = properties.some((property) => isObject(property) && "x-mcp-header" in property);
    declaresHeaders.set(inputSchema, found);
  }
  return found;
}
