import { getEnv } from "@/lib/env";
import type { McpEndpoint } from "./endpoint";
import { loneModernToolsCall, modernToolsCallAnswer } from "./modern-lone-call";
import { loneToolsCall, toolsCallAnswer } from "./tools-call-answer";
import { loneToolsListId, toolsListAnswer } from "./tools-list-answer";

/**
 * The answer to a lone tools/list or tools/call of a 2025 client without a session, made without an SDK server,
 * as that server would make it; or undefined, for the SDK server to answer. A listing comes from the endpoint's
 * listing serialized once (a large organization's holds thousands of tools); paged listings, and a listing that
 * fails, are the SDK server's. A call's client that hangs up cancels it.
 */
export async function loneAnswer(
  request: Request,
  body: unknown,
  endpoint: McpEndpoint,
): Promise<Response | undefined> {
  const listId =
    endpoint.serializedTools && !getEnv().MCP_LIST_PAGE_SIZE
      ? loneToolsListId(request.headers, body)
      : undefined;
  if (listId !== undefined) {
    const serialized = await endpoint.serializedTools?.().catch(() => undefined);
    if (serialized) return toolsListAnswer(listId, serialized);
  }
  const call = loneToolsCall(request.headers, body);
  if (call) return toolsCallAnswer(call.id, () => endpoint.callTool(call.params, { signal: request.signal }));
  return undefined;
}

/**
 * The answer to a lone 2026-07-28 tools/call that can only end in one JSON result (see loneModernToolsCall), made
 * without the SDK's handler and server, as they would make it; or undefined, for them to answer. A call whose
 * tool mirrors arguments in headers is theirs, as they check those headers. A client that hangs up cancels it.
 */
export async function loneModernAnswer(
  request: Request,
  body: unknown,
  endpoint: McpEndpoint,
): Promise<Response | undefined> {
  const call = loneModernToolsCall(request.headers, body);
  if (!call) return undefined;
  if (await endpoint.mirroringSchemaOf(call.params.name)) return undefined;
  return modernToolsCallAnswer(call.id, endpoint.info, () =>
    endpoint.callTool(call.params, { signal: request.signal }),
  );
}
