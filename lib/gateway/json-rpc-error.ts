/** A JSON-RPC error answer with no request id (the request was refused before any message was read). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}
