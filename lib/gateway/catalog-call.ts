import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import { callTool } from "@/lib/tools/catalog";
import type { GatewayCaller } from "./caller";
import type { GatewayCall } from "./endpoint";
import { passedThrough } from "./mcp-errors";

/**
 * A catalog call as an MCP result: every failure is an error result the client can read, never a crash. With a
 * relay, what the upstream server says during the call (progress, questions, log messages) reaches the client.
 */
export async function callCatalogTool(
  db: Database,
  ctx: GatewayCaller,
  name: string,
  args: Record<string, unknown>,
  { signal, relay, upstreamSession }: GatewayCall,
): Promise<CallToolResult> {
  const result = await withDownstreamRelay(relay, () =>
    callTool(db, ctx, name, args, { surface: "gateway", scope: ctx.toolScope, signal, upstreamSession }),
  );
  await relay?.sent();
  // The server's own MCP error reaches the client as it sent it.
  if (result.upstreamError) throw passedThrough(result.upstreamError);
  const content = (
    result.content.length
      ? result.content
      : [{ type: "text", text: result.errorMessage ?? (result.isError ? "The tool reported an error." : "") }]
  ) as CallToolResult["content"];
  return {
    content,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}
