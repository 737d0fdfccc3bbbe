import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType } from "@modelcontextprotocol/server";
import { AppError } from "@/lib/errors";
import { type JsonTextProblem, MAX_JSON_DEPTH, parseJsonText, readBodyText } from "@/lib/http/read-json";
import { jsonRpcError } from "./json-rpc-error";

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

// What the SDK's transport refuses, and how it says so (not exported by the SDK; see checked-sdk.ts).
export const MAX_BATCH_SIZE = 100;
export const requestBodyTooLargeMessage = (maxBytes: number) =>
  `Payload Too Large: Request body must not exceed ${maxBytes} bytes`;

const problems: Record<JsonTextProblem, { code: number; message: string }> = {
  empty: { code: PARSE_ERROR, message: "Parse error: Invalid JSON" },
  invalid: { code: PARSE_ERROR, message: "Parse error: Invalid JSON" },
  too_deep: {
    code: INVALID_REQUEST,
    message: `Invalid Request: the message nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
  },
  nul: {
    code: INVALID_REQUEST,
    message:
      "Invalid Request: the message contains a NUL character (\\u0000), which is not accepted in any text.",
  },
  lone_surrogate: {
    code: INVALID_REQUEST,
    message:
      "Invalid Request: the message contains half of a UTF-16 surrogate pair (such as \\ud800), which is not valid text.",
  },
};

/**
 * Reads a gateway POST's JSON-RPC body the way the SDK's transport would (same size limit, same errors), and
 * more strictly: nested at most MAX_JSON_DEPTH levels, no NUL or lone surrogate, no empty batch and at most the
 * SDK's batch size. Answers how many messages it holds and the parsed body to hand to the transport, or the
 * JSON-RPC error to send. A body that is not JSON is left to the transport, which refuses it (415) unread.
 */
export async function readGatewayMessages(
  request: Request,
): Promise<Response | { parsedBody: unknown; messages: number }> {
  if (!isJsonContentType(request.headers.get("content-type"))) return { parsedBody: undefined, messages: 1 };
  let text: string;
  try {
    text = await readBodyText(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
  } catch (error) {
    if (error instanceof AppError && error.type === "payload_too_large")
      return jsonRpcError(413, -32000, requestBodyTooLargeMessage(DEFAULT_MAX_REQUEST_BODY_SIZE));
    throw error;
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { code, message } = problems[parsed.problem];
    return jsonRpcError(400, code, message);
  }
  const body = parsed.value;
  if (!Array.isArray(body)) return { parsedBody: body, messages: 1 };
  if (body.length === 0) return jsonRpcError(400, INVALID_REQUEST, "Invalid Request: the batch is empty.");
  if (body.length > MAX_BATCH_SIZE)
    return jsonRpcError(
      400,
      INVALID_REQUEST,
      `Invalid Request: a batch holds at most ${MAX_BATCH_SIZE} messages; this one has ${body.length}.`,
    );
  return { parsedBody: body, messages: body.length };
}
