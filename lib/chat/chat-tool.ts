import { dynamicTool, jsonSchema, type Tool } from "ai";
import type { ToolDescriptor, ToolResult } from "@/lib/tools/types";
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
  return dynamicTool({
    description: descriptor.description,
    inputSchema: jsonSchema(descriptor.inputSchema as Parameters<typeof jsonSchema>[0]),
    toModelOutput: ({ output }) => toolOutputForModel(output, resultBudget),
    execute: (input, { abortSignal }) =>
      call(
        descriptor.name,
        typeof input === "object" && input !== null && !Array.isArray(input)
          ? (input as Record<string, unknown>)
          : {},
        abortSignal,
      ),
  });
}
