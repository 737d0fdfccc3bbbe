import type { ToolDescriptor, ToolResult } from "./types";
import { outputSchemaError } from "./types";
import { outputSchemaProblem } from "./validate-args";

/**
 * A result of a tool with an output schema, as the MCP SDK's server would let it through: a structured result that
 * breaks the schema, or none at all, is reported as an error on every surface rather than passed on silently.
 */
export function checkedOutput(tool: ToolDescriptor, result: ToolResult): ToolResult {
  if (!tool.outputSchema || result.isError) return result;
  const problem =
    result.structuredContent === undefined
      ? "it has no structured result"
      : outputSchemaProblem(tool.outputSchema, result.structuredContent);
  if (!problem) return result;
  return outputSchemaError(tool.name, problem);
}
