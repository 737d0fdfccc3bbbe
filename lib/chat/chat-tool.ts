import { dynamicTool, jsonSchema, type Tool } from "ai";
import { errorResult, type ToolDescriptor, type ToolResult } from "@/lib/tools/types";
import { fileArgumentsOf, filesOfTurn, UnknownFileHandleError, withFilesResolved } from "./files-for-tools";
import { toolOutputForModel } from "./tool-result-budget";

/** Calls a tool of the conversation by its listed name; a refusal or failure comes back as an error result. */
export type ConversationToolCall = (
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<ToolResult>;

/**
 * A catalog tool as an AI SDK tool, whatever its source. Arguments are not checked here: the catalog checks
 * them, so the model reads the same per-field message the REST API gives.
 */
export function chatTool(descriptor: ToolDescriptor, call: ConversationToolCall, resultBudget: number): Tool {
  // Arguments that take a file get the conversation's file for its handle (the turn passes its files).
  const fileArguments = fileArgumentsOf(descriptor.inputSchema);
  return dynamicTool({
    description: descriptor.description,
    inputSchema: jsonSchema(descriptor.inputSchema as Parameters<typeof jsonSchema>[0]),
    toModelOutput: ({ output }) => toolOutputForModel(output, resultBudget),
    execute: async (input, { abortSignal, experimental_context }) => {
      const args =
        typeof input === "object" && input !== null && !Array.isArray(input)
          ? (input as Record<string, unknown>)
          : {};
      if (!fileArguments) return call(descriptor.name, args, abortSignal);
      try {
        const resolved = withFilesResolved(args, fileArguments, filesOfTurn(experimental_context));
        return await call(descriptor.name, resolved, abortSignal);
      } catch (error) {
        if (error instanceof UnknownFileHandleError) return errorResult(error.message);
        throw error;
      }
    },
  });
}
