import type { ElicitRequest, ElicitResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "ai";
import { withDownstreamRelay } from "@/lib/mcp/relay/downstream-relay";

/** What the chat does with what a tool's MCP server says during a call. */
export interface ChatToolRelay {
  progress(toolCallId: string, progress: Progress): void;
  /** Asks the person in the chat the server's question and resolves with their answer. */
  elicit(toolCallId: string, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult>;
}

/** The conversation's tools, each passing what its MCP server says while it runs to the chat. */
export function withToolRelay(tools: Record<string, Tool>, relay: ChatToolRelay): Record<string, Tool> {
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
              {
                progress: (progress) => relay.progress(options.toolCallId, progress),
                elicit: (params, signal) => relay.elicit(options.toolCallId, params, signal),
              },
              () => execute(input, options),
            ),
        } as Tool,
      ];
    }),
  );
}
