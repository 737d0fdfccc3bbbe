import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Database } from "@/db/client";
import type { ApiKeyContext } from "@/lib/api-keys/api-keys";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import { callTool } from "@/lib/tools/catalog";
import type { GatewayCall } from "./endpoint";

/**
 * A catalog call as an MCP result: every failure is an error result the client can read, never a crash. With a
 * relay, what the upstream server says during the call (progress, questions, log messages) reaches the client.
 */
export async function callCatalogTool(
  db: Database,
  ctx: ApiKeyContext,
  name: string,
  args: Record<string, unknown>,
  { signal, relay }: GatewayCall,
): Promise<CallToolResult> {
  const result = await withDownstreamRelay(relay, () =>
    callTool(db, ctx, name, args, { surface: "gateway", scope: ctx.toolScope, signal }),
  );
  await relay?.sent();
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
