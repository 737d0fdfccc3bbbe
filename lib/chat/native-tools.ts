import { dynamicTool, jsonSchema, type Tool } from "ai";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/env";
import { builtinTools } from "@/lib/tools/builtin";
import { invokeTool } from "@/lib/tools/catalog";
import { toolOutputForModel } from "./tool-result-budget";

/**
 * The agent's built-in tools as AI SDK tools, called through the same catalog as the REST API and the gateway;
 * a failure (bad arguments, say) goes back to the model as a result it can read.
 */
export function nativeTools(db: Database, ctx: RequestContext, enabled: string[]): Record<string, Tool> {
  return Object.fromEntries(
    builtinTools
      .filter((tool) => enabled.includes(tool.name))
      .map((tool) => [
        tool.name,
        dynamicTool({
          description: tool.description,
          inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
          toModelOutput: ({ output }) => toolOutputForModel(output, getEnv().CHAT_TOOL_RESULT_MAX_CHARS),
          execute: async (input) => {
            try {
              const result = await invokeTool(db, ctx, tool.name, (input ?? {}) as Record<string, unknown>, {
                surface: "chat",
              });
              return result.structuredContent ?? result;
            } catch (error) {
              return {
                isError: true,
                errorMessage: error instanceof Error ? error.message : "Tool execution failed",
              };
            }
          },
        }),
      ]),
  );
}
