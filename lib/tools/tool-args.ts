import { z } from "zod";
import { ValidationError } from "@/lib/errors";

/**
 * What a zod object accepts, as JSON Schema: how a tool's arguments are listed (and the REST invoke body is
 * described), derived from the zod schema that parses them, so the two never disagree. The input side (a
 * field with a default is optional and shows its default), the zod object's key order,
 * `additionalProperties: false` for strict objects, and no `$schema` key (MCP clients and OpenAI function
 * schemas don't want it).
 */
export function inputJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  // The rest copies only the plain JSON keys, leaving `$schema` and zod's non-enumerable `~standard` behind.
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: "input" });
  if (jsonSchema.type !== "object") throw new Error("The schema must describe a JSON object.");
  return jsonSchema;
}

/**
 * Parses a tool's params, naming each bad or missing field in a 400-class error. A missing required field
 * (an issue reading "<field> is required") is the whole message, as the REST contract promises (seed 002:
 * "node_names is required"); every issue is still named in the fields.
 */
export function parseToolArgs<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  const required: string[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "params";
    const message = issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`;
    fields[key] = [...(fields[key] ?? []), message];
    messages.push(message);
    if (message === `${key} is required`) required.push(message);
  }
  throw new ValidationError((required.length > 0 ? required : messages).join("; "), fields);
}
