import type { z } from "zod";
import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { inputJsonSchema, parseToolArgs } from "../tool-args";
import type { BuiltinTool, ToolResult } from "../types";

export interface BuiltinToolDefinition<Args extends z.ZodObject> {
  name: string;
  description: string;
  /** The one source of the tool's arguments: it parses them, and the listed JSON Schema is derived from it. */
  args: Args;
  run(db: Database, ctx: RequestContext, args: z.output<Args>): Promise<ToolResult>;
}

/** A built-in tool whose listed `inputSchema` is its zod `args` as JSON Schema, and whose `run` gets them parsed. */
export function defineBuiltinTool<Args extends z.ZodObject>(
  definition: BuiltinToolDefinition<Args>,
): BuiltinTool {
  const { name, description, args, run } = definition;
  return {
    name,
    description,
    source: "builtin",
    inputSchema: inputJsonSchema(args),
    run: async (db, ctx, raw) => run(db, ctx, parseToolArgs(args, raw)),
  };
}
