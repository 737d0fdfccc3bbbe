import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import type { UpstreamRpcError } from "@/lib/mcp/errors";

export type ToolSource = "builtin" | "integration" | "capability";

/** What MCP says of a tool besides its name, description and arguments; each surface shows what it can of it. */
export type ToolDetails = Pick<
  Tool,
  "title" | "outputSchema" | "annotations" | "icons" | "execution" | "_meta"
>;

const DETAIL_KEYS = ["title", "outputSchema", "annotations", "icons", "execution", "_meta"] as const;

/**
 * The details a tool is offered with, without keys for those it lacks (listings stay as small as the server's
 * own). A tool its server runs only as a task is offered as one that may run as a task: Switchboard waits for the
 * task when a caller does not ask for one, and MCP clients in a session may still ask (gateway/sessions/session-tasks.ts).
 */
export function toolDetailsOf(tool: ToolDetails): ToolDetails {
  const details: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (tool[key] !== undefined) details[key] = tool[key];
  if (tool.execution?.taskSupport === "required")
    details.execution = { ...tool.execution, taskSupport: "optional" };
  return details as ToolDetails;
}

/** The details without `taskSupport`, for REST, which has no tasks: every call there waits for its result. */
export function detailsWithoutTasks(tool: ToolDetails): ToolDetails {
  const details = toolDetailsOf(tool);
  if (!details.execution?.taskSupport) return details;
  const { taskSupport: _runsAsTask, ...execution } = details.execution;
  const { execution: _execution, ...rest } = details;
  return Object.keys(execution).length > 0 ? { ...rest, execution } : rest;
}

/** Every tool, whatever its origin, as the chat, the REST API and the gateway see it. */
export interface ToolDescriptor extends ToolDetails {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  source: ToolSource;
}

/**
 * What every tool call answers, on every surface: MCP's own `CallToolResult`, plus, on a failure, the message
 * that says why in one line (the REST error contract's `details`, the log's `errorMessage`), and, when the
 * server answered with an MCP error, that error as it sent it (MCP clients get it unchanged).
 */
export type ToolResult = CallToolResult & { errorMessage?: string; upstreamError?: UpstreamRpcError };

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

const BREAKS_OUTPUT_SCHEMA = "answered a result that does not match its output schema";

/** The error a tool's result gets when it breaks the tool's output schema (or has no structured result). */
export function outputSchemaError(toolName: string, problem: string): ToolResult {
  return errorResult(`${toolName} ${BREAKS_OUTPUT_SCHEMA}: ${problem}.`);
}

/** Whether a result is the error of the output schema's check, for the tool runner to show it as such. */
export function breaksOutputSchema(result: ToolResult): boolean {
  return result.isError === true && (result.errorMessage?.includes(` ${BREAKS_OUTPUT_SCHEMA}: `) ?? false);
}

/** A failure the caller can read, as MCP content. */
export function errorResult(message: string): ToolResult {
  return { isError: true, content: [{ type: "text", text: message }], errorMessage: message };
}
