import type { z } from "zod";
import { type Database, getDb } from "@/db/client";
import { type FieldErrors, toActionError, ValidationError } from "@/lib/errors";
import { invalidActionArgs } from "./action-args";

/*
 * Every server action takes the same steps: check its arguments, resolve who is asking and the database, run,
 * and answer a refusal as a result its form can show, with what the person typed. What follows success
 * (revalidating, redirecting, the answer) runs after, outside the try: Next's redirect works by throwing.
 */

/** The values a form shows again after a refusal, by field name. */
export type KeptValues = Record<string, string>;

/** What an action answers when it refuses: the message, each field's messages, and what its form keeps. */
export interface ActionRefusal {
  error: string;
  fields?: FieldErrors;
  values?: KeptValues;
}

/** The context of actions that run before anyone is signed in: signing in, registering. */
export async function anyone(): Promise<null> {
  return null;
}

/**
 * The named fields of a form as it was sent; a field sent more than once (checkboxes) is kept comma-separated.
 * With `filledOnly`, values are trimmed and blank fields left out, so the form falls back to what is saved.
 */
export function keptValues(
  form: FormData,
  names: readonly string[],
  { filledOnly = false }: { filledOnly?: boolean } = {},
): KeptValues {
  if (!filledOnly)
    return Object.fromEntries(names.map((name) => [name, form.getAll(name).map(String).join(",")]));
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = form.get(name);
      return typeof value === "string" && value.trim() !== "" ? [[name, value.trim()]] : [];
    }),
  );
}

/** The fields to keep after a refusal, by name (never a secret's), or a function of the form. */
export type Keep = readonly string[] | ((form: FormData) => KeptValues);

/** An action's arguments by parameter name; `form` is the one a form action's kept values come from. */
type ActionArgs = Record<string, unknown>;

interface ActionSteps<Args extends ActionArgs, Ctx, Value> {
  /** The action's name in the log. */
  name: string;
  /** The schema of the arguments, by parameter name; they are checked before anything else runs. */
  args: z.ZodType<Args>;
  /** The arguments, as the action received them. */
  input: NoInfer<Args>;
  /** Who must be asking: a context getter of `lib/auth`, or `anyone`. */
  context: () => Promise<Ctx>;
  /** The work; whatever it throws becomes the refusal. */
  run: (deps: { db: Database; ctx: Ctx }) => Promise<Value> | Value;
}

interface FormKeeping<Args extends ActionArgs> {
  /** For a form action: what the form shows again after a refusal, so nothing typed is lost. */
  keep?: Args extends { form: FormData } ? Keep : never;
}

interface AfterSuccess<Value, Result> {
  /** What follows success (revalidate, redirect, the answer), outside the try so that a redirect redirects. */
  onSuccess: (value: Value) => Promise<Result> | Result;
}

type Steps<Args extends ActionArgs, Ctx, Value> = ActionSteps<Args, Ctx, Value> & FormKeeping<Args>;

/**
 * Runs a server action's steps and answers a refusal (bad arguments, a thrown error) as a result: an app error
 * with its message and fields, anything else with a generic message and a log line.
 */
export function serverAction<Args extends ActionArgs, Ctx, Value, Result>(
  steps: Steps<Args, Ctx, Value> & AfterSuccess<Value, Result>,
): Promise<Result | ActionRefusal>;
export function serverAction<Args extends ActionArgs, Ctx, Value>(
  steps: Steps<Args, Ctx, Value>,
): Promise<Value | ActionRefusal>;
export async function serverAction<Args extends ActionArgs, Ctx, Value, Result>(
  steps: Steps<Args, Ctx, Value> & Partial<AfterSuccess<Value, Result>>,
): Promise<Value | Result | ActionRefusal> {
  const invalid = invalidActionArgs(steps.args, steps.input);
  if (invalid) return invalid;
  let value: Value;
  try {
    value = await steps.run(deps(await steps.context()));
  } catch (error) {
    const refusal: ActionRefusal = toActionError(error, { action: steps.name });
    const values = kept(steps.keep, steps.input.form);
    return values ? { ...refusal, values } : refusal;
  }
  return steps.onSuccess ? steps.onSuccess(value) : value;
}

/**
 * The same steps for an action whose caller has no place for a message (a plain `<form action>` that redirects
 * when it succeeds): a refusal is thrown, for the error page, bad arguments as a ValidationError.
 */
export async function throwingServerAction<Args extends ActionArgs, Ctx, Value, Result>(
  steps: ActionSteps<Args, Ctx, Value> & AfterSuccess<Value, Result>,
): Promise<Result> {
  const invalid = invalidActionArgs(steps.args, steps.input);
  if (invalid) throw new ValidationError(invalid.error, invalid.fields);
  return steps.onSuccess(await steps.run(deps(await steps.context())));
}

/** What the body runs with; the database is opened only if the body uses it (signing out does not). */
function deps<Ctx>(ctx: Ctx): { db: Database; ctx: Ctx } {
  return {
    ctx,
    get db() {
      return getDb();
    },
  };
}

function kept(keep: Keep | undefined, form: unknown): KeptValues | undefined {
  if (!keep || !(form instanceof FormData)) return undefined;
  return typeof keep === "function" ? keep(form) : keptValues(form, keep);
}
