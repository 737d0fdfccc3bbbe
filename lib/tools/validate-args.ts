import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { ValidationError } from "@/lib/errors";
import { linearRegExpEngine, strictLinearRegExpEngine, UncheckablePatternError } from "./linear-regexp";

const options: Options = { allErrors: true, strict: false, useDefaults: true, coerceTypes: false };
// Tenants write these schemas: their patterns run in linear time (RE2), never on a backtracking engine.
const ajv = new Ajv({ ...options, code: { regExp: linearRegExpEngine } });
addFormats.default(ajv);
// The capability editor's check: a pattern that cannot be checked is an error its author sees at save time.
const strictAjv = new Ajv({ ...options, code: { regExp: strictLinearRegExpEngine } });
addFormats.default(strictAjv);

// Compiling a schema is far slower than checking against it; servers' schemas repeat, so keep the compiled ones.
const compiled = new Map<string, ValidateFunction | null>();
const MAX_CACHED = 500;

function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  const key = JSON.stringify(schema);
  if (compiled.has(key)) return compiled.get(key) ?? null;
  let validate: ValidateFunction | null;
  try {
    validate = ajv.compile(schema);
  } catch {
    // A schema we cannot compile is the server's problem; the server validates its own input.
    validate = null;
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validate);
  return validate;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (error.keyword === "required")
    return [path, String(error.params.missingProperty)].filter(Boolean).join(".");
  if (error.keyword === "additionalProperties") {
    return [path, String(error.params.additionalProperty)].filter(Boolean).join(".");
  }
  return path || "params";
}

function messageOf(error: ErrorObject, field: string): string {
  if (error.keyword === "required") return `${field} is required`;
  if (error.keyword === "additionalProperties") return `${field} is not an accepted parameter`;
  return `${field} ${error.message ?? "is invalid"}`;
}

/** Why a JSON Schema cannot be used to check arguments, or null when it can. */
export function compileToolSchema(schema: Record<string, unknown>): string | null {
  try {
    strictAjv.compile(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : "it does not compile";
  } finally {
    // Each save brings a new schema object: the editor's check keeps none of them.
    strictAjv.removeSchema(schema);
  }
}

/** Checks params against a tool's JSON Schema; every bad or missing field is named in a 400. */
export function validateToolArgs(schema: Record<string, unknown>, args: Record<string, unknown>): void {
  const validate = validatorFor(schema);
  if (!validate) return;
  let valid: boolean;
  try {
    valid = validate(args) as boolean;
  } catch (error) {
    if (!(error instanceof UncheckablePatternError)) throw error;
    // Refused, not waved through: an argument this server cannot check safely does not reach the tool.
    const message = `The tool's schema uses a pattern this server cannot check safely, so the call was refused: ${error.message}.`;
    throw new ValidationError(message, { params: [message] });
  }
  if (valid) return;
  const fields: Record<string, string[]> = {};
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    fields[field] = [...(fields[field] ?? []), messageOf(error, field)];
  }
  throw new ValidationError(
    `Invalid params: ${Object.values(fields)
      .map((messages) => messages[0])
      .join("; ")}`,
    fields,
  );
}

/** Why a structured result breaks its tool's output schema, or null when it does not (or cannot be checked). */
export function outputSchemaProblem(schema: Record<string, unknown>, value: unknown): string | null {
  const validate = validatorFor(schema);
  if (!validate) return null;
  try {
    // A copy: the checker fills in defaults, and the result must reach the caller as the server sent it.
    if (validate(structuredClone(value))) return null;
  } catch (error) {
    if (!(error instanceof UncheckablePatternError)) throw error;
    return null;
  }
  return (validate.errors ?? [])
    .map((error) => {
      const path = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
      const field =
        error.keyword === "required"
          ? [path, String(error.params.missingProperty)].filter(Boolean).join(".")
          : path;
      return error.keyword === "required"
        ? `${field} is missing`
        : `${field || "the result"} ${error.message ?? "is invalid"}`;
    })
    .join("; ");
}
