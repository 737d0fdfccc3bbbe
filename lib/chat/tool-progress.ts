import type { Tool } from "ai";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";
import type { ToolProgress } from "./tool-progress-schema";

/**
 * The conversation's tools, each reporting what its MCP server says of its progress while it runs (a server
 * that says nothing reports nothing).
 */
export function withToolProgress(
  tools: Record<string, Tool>,
  report: (progress: ToolProgress) => void,
): Record<string, Tool> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const { execute } = tool;
      if (!execute) return [name, tool];
      return [
        name,
        {
          ...tool,
          execute: (input: unknown, options: Parameters<typeof execute>[1]) =>
            withDownstreamRelay(
              { progress: (progress) => report({ toolCallId: options.toolCallId, ...progress }) },
              () => execute(input, options),
            ),
        } as Tool,
      ];
    }),
  );
}
