import type { z } from "zod";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { inputJsonSchema, parseToolArgs } from "../tool-args";
import type { BuiltinTool, ToolDetails, ToolResult } from "../types";

export interface BuiltinToolDefinition<Args extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** What clients may assume of a call, so they can run it without asking (MCP tool annotations). */
  annotations: NonNullable<ToolDetails["annotations"]>;
  /** The one source of the tool's arguments: it parses them, and the listed JSON Schema is derived from it. */
  args: Args;
  run(db: Database, ctx: RequestContext, args: z.output<Args>): Promise<ToolResult>;
}

/** The knowledge tools only read the organization's own knowledge. */
export const READS_OWN_KNOWLEDGE = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** A built-in tool whose listed `inputSchema` is its zod `args` as JSON Schema, and whose `run` gets them parsed. */
export function defineBuiltinTool<Args extends z.ZodObject>(
  definition: BuiltinToolDefinition<Args>,
): BuiltinTool {
  const { name, title, description, annotations, args, run } = definition;
  return {
    name,
    title,
    description,
    annotations,
    source: "builtin",
    inputSchema: inputJsonSchema(args),
    run: async (db, ctx, raw) => run(db, ctx, parseToolArgs(args, raw)),
  };
}
