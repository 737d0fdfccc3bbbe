import type { z } from "zod";
import { ValidationError } from "./errors";

/** Parses input with a zod schema, turning every issue into a message on its field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  const first = result.error.issues[0]?.message ?? "The input is not valid.";
  throw new ValidationError(first, fields);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs and forms; anything that is not a UUID cannot name a row. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
