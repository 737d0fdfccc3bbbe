import { dynamicTool, jsonSchema, type Tool } from "ai";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";
import { builtinTools } from "@/lib/tools/builtin";

/** The agent's built-in tools as AI SDK tools; a failure (bad arguments, say) goes back to the model as a result. */
export function nativeTools(db: Database, ctx: RequestContext, enabled: string[]): Record<string, Tool> {
  return Object.fromEntries(
    builtinTools
      .filter((tool) => enabled.includes(tool.name))
      .map((tool) => [
        tool.name,
        dynamicTool({
          description: tool.description,
          inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
          execute: async (input) => {
            try {
              const result = await tool.run(db, ctx, input);
              logger.info("tool call", {
                tool: tool.name,
                surface: "chat",
                orgId: ctx.orgId,
                userId: ctx.userId,
                outcome: "ok",
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
