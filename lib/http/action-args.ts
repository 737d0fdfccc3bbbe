import { z } from "zod";
import type { FieldErrors } from "@/lib/errors";
import { isUuid } from "@/lib/validation";
import { hasNul } from "./text-input";

/*
 * Server actions are public endpoints: a browser can call any exported action with any arguments React can
 * serialize (strings where booleans are declared, objects where ids are), whatever its TypeScript signature says.
 * So every action checks its arguments first, with the schemas below, and answers bad ones as it answers any
 * refused input, before anything runs.
 */

/** An id from a page: a UUID string (anything else names no row). */
export const idArg = z.string({ error: "must be an id" }).refine(isUuid, { error: "must be an id" });

/** A switch: true or false, never a string that merely looks like one. */
export const booleanArg = z.boolean({ error: "must be true or false" });

/** Text typed by a person: a string without NUL, which Postgres cannot store. */
export const textArg = z
  .string({ error: "must be text" })
  .refine((value) => !hasNul(value), { error: "must not contain a NUL character" });

/** A form's fields, as a `<form action>` or useActionState sends them; no text field may hold NUL. */
export const formArg = z
  .instanceof(FormData, { error: "must be the form's data" })
  .refine((form) => [...form.values()].every((value) => typeof value !== "string" || !hasNul(value)), {
    error: "must not contain a NUL character in any field",
  });

/** What an action answers when its arguments are not what it declares: its usual error shape. */
export interface ActionArgsError {
  error: string;
  fields: FieldErrors;
}

/**
 * Checks a server action's arguments, given by name, against their schemas: undefined when every one is what
 * the action declares, else the error to return. The schema must accept the declared parameter types (the
 * compiler checks), and has no transforms, so the checked values are the arguments themselves.
 */
export function invalidActionArgs<T>(schema: z.ZodType<T>, args: NoInfer<T>): ActionArgsError | undefined {
  const result = schema.safeParse(args);
  if (result.success) return undefined;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] = [...(fields[key] ?? []), `${key}: ${issue.message}`];
  }
  const [first] = Object.values(fields).flat();
  return { error: `This request is not valid: ${first ?? "unexpected arguments"}.`, fields };
}
