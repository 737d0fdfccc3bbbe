import type { z } from "zod";
import { ValidationError } from "@/lib/errors";

/** Parses a tool's params, naming each bad or missing field in a 400-class error. */
export function parseToolArgs<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "params";
    const message = issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`;
    fields[key] = [...(fields[key] ?? []), message];
    messages.push(message);
  }
  throw new ValidationError(messages.join("; "), fields);
}
