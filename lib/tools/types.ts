import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import type { McpContent } from "@/lib/mcp/types";

export type ToolSource = "builtin" | "integration" | "capability";

/** Every tool, whatever its origin, as the chat, the REST API and the gateway see it. */
export interface ToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  source: ToolSource;
}

export interface ToolResult {
  isError: boolean;
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  errorMessage?: string;
}

export interface BuiltinTool extends ToolDescriptor {
  source: "builtin";
  /** Parses its own arguments, so its messages can be exactly those its contract promises. */
  run(db: Database, ctx: RequestContext, args: unknown): Promise<ToolResult>;
}

/** A JSON result as MCP content: text for models that read text, structured for clients that read JSON. */
export function jsonResult(value: Record<string, unknown>): ToolResult {
  return {
    isError: false,
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
  };
}

/** A failure the caller can read, as MCP content. */
export function errorResult(message: string): ToolResult {
  return { isError: true, content: [{ type: "text", text: message }], errorMessage: message };
}
