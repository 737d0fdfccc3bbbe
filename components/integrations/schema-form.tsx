"use client";

import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";

export interface JsonSchemaProperty {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  /** Choices with their own labels (`[{ const: "hero-1", title: "Superman" }, …]`), or the types a value may have. */
  oneOf?: JsonSchemaProperty[];
  anyOf?: JsonSchemaProperty[];
  const?: unknown;
  default?: unknown;
  title?: string;
}

interface Choice {
  /** The option's value in the form (text), and the value it stands for, of its own type. */
  value: string;
  sent: unknown;
  label: string;
}

/** A property's choices, each with its value and label, if it offers a fixed set. */
function choicesOf(property: JsonSchemaProperty): Choice[] | undefined {
  if (property.enum)
    return property.enum.map((option) => ({ value: String(option), sent: option, label: String(option) }));
  const titled = (property.oneOf ?? property.anyOf)?.filter((option) => option.const !== undefined);
  if (!titled?.length) return undefined;
  return titled.map((option) => ({
    value: String(option.const),
    sent: option.const,
    label: option.title ?? String(option.const),
  }));
}

export type FormValues = Record<string, string | boolean>;

/** The types a value may have: `type` (one or a list), or those of its `oneOf`/`anyOf` variants; null aside. */
function typesOf(schema: JsonSchemaProperty): string[] {
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const variants = (schema.oneOf ?? schema.anyOf ?? []).filter((variant) => variant.const === undefined);
  const types = [...own, ...variants.flatMap(typesOf)].filter((type) => type !== "null");
  return [...new Set(types)];
}

function typeOf(schema: JsonSchemaProperty): string {
  const types = typesOf(schema);
  if (types.length > 1) return "mixed";
  return types[0] ?? "string";
}

/** A field's text as the first of its types it reads as, in the order a person would mean it. */
function mixedValue(types: string[], raw: string): { value: unknown } | undefined {
  const text = raw.trim();
  const number = Number(text);
  if (types.includes("integer") && Number.isInteger(number) && text !== "") return { value: number };
  if (types.includes("number") && Number.isFinite(number) && text !== "") return { value: number };
  if (types.includes("boolean") && (text === "true" || text === "false")) return { value: text === "true" };
  if (types.includes("object") || types.includes("array")) {
    try {
      const parsed: unknown = JSON.parse(text);
      const kind = Array.isArray(parsed) ? "array" : typeof parsed;
      if (types.includes(kind)) return { value: parsed };
    } catch {
      // Not JSON: perhaps text.
    }
  }
  if (types.includes("string")) return { value: raw };
  return undefined;
}

/**
 * What the form shows at first: each property's default, as the field shows it. A default is sent only while it
 * is shown: a field emptied by the person is left out of the arguments.
 */
export function defaultsOf(schema: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const { name, property } of propertiesOf(schema)) {
    if (property.default === undefined) continue;
    const type = typeOf(property);
    if (type === "boolean") values[name] = property.default === true;
    else if (typeof property.default === "object" && property.default !== null)
      values[name] = JSON.stringify(property.default);
    else values[name] = String(property.default);
  }
  return values;
}

export function propertiesOf(schema: Record<string, unknown>) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaProperty>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    property,
    required: required.has(name),
  }));
}

/** Turns the form's strings into the argument types the schema asks for; returns the messages of bad fields. */
export function toArguments(schema: Record<string, unknown>, values: FormValues) {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const { name, property, required } of propertiesOf(schema)) {
    const raw = values[name];
    const type = typeOf(property);
    if (type === "boolean") {
      if (raw !== undefined) args[name] = raw === true;
      continue;
    }
    if (typeof raw !== "string" || raw.trim() === "") {
      if (required) errors[name] = "Required.";
      continue;
    }
    const choice = choicesOf(property)?.find((option) => option.value === raw);
    if (choice) {
      args[name] = choice.sent;
      continue;
    }
    if (type === "mixed") {
      const read = mixedValue(typesOf(property), raw);
      if (read) args[name] = read.value;
      else errors[name] = `Enter ${typesOf(property).join(" or ")}.`;
      continue;
    }
    if (type === "number" || type === "integer") {
      const number = Number(raw);
      if (!Number.isFinite(number) || (type === "integer" && !Number.isInteger(number))) {
        errors[name] = type === "integer" ? "Enter a whole number." : "Enter a number.";
      } else args[name] = number;
    } else if (type === "object" || type === "array") {
      try {
        args[name] = JSON.parse(raw);
      } catch {
        errors[name] = `Enter valid JSON (${type === "array" ? "[…]" : "{…}"}).`;
      }
    } else {
      args[name] = raw;
    }
  }
  return { args, errors };
}

/**
 * The server's messages per field (keyed by dotted path, as the catalog's ValidationError has them) on the form's
 * fields: a nested path's message goes on the top-level field that holds it; the rest is in the overall message.
 */
export function formErrorsOf(
  schema: Record<string, unknown>,
  fields: Record<string, string[]> | undefined,
): Record<string, string> {
  const names = new Set(propertiesOf(schema).map((field) => field.name));
  const errors: Record<string, string> = {};
  for (const [path, messages] of Object.entries(fields ?? {})) {
    const name = names.has(path) ? path : path.split(".")[0];
    if (name === undefined || !names.has(name)) continue;
    errors[name] = [errors[name], ...messages].filter(Boolean).join(" ");
  }
  return errors;
}

/** A form generated from a tool's JSON Schema: text, numbers, choices, checkboxes, and JSON for nested values. */
export function SchemaForm({
  schema,
  values,
  errors,
  onChange,
  idPrefix = "arg",
  empty = "This tool takes no arguments.",
}: {
  schema: Record<string, unknown>;
  values: FormValues;
  errors: Record<string, string>;
  onChange: (values: FormValues) => void;
  /** Starts each field's id, so that two forms on one page keep theirs apart. */
  idPrefix?: string;
  /** What is said when the schema asks for nothing. */
  empty?: string;
}) {
  const fields = propertiesOf(schema);
  if (fields.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <div className="grid gap-3">
      {fields.map(({ name, property, required }) => {
        const id = `${idPrefix}-${name}`;
        const type = typeOf(property);
        const label = `${property.title ?? name}${required ? " *" : ""}`;
        const value = values[name];
        const set = (next: string | boolean) => onChange({ ...values, [name]: next });
        const choices = choicesOf(property);
        if (type === "boolean") {
          return (
            <label key={name} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={value === true}
                onChange={(event) => set(event.target.checked)}
              />
              {label}
              {property.description ? (
                <span className="text-muted-foreground">— {property.description}</span>
              ) : null}
            </label>
          );
        }
        return (
          <Field key={name} id={id} label={label} hint={property.description} error={errors[name]}>
            {choices ? (
              <Select
                id={id}
                value={typeof value === "string" ? value : ""}
                onChange={(event) => set(event.target.value)}
              >
                <option value="">Choose…</option>
                {choices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </Select>
            ) : type === "object" || type === "array" ? (
              <textarea
                id={id}
                className="min-h-20 w-full rounded-md border bg-card px-3 py-2 font-mono text-sm"
                value={typeof value === "string" ? value : ""}
                onChange={(event) => set(event.target.value)}
                placeholder={type === "array" ? "[]" : "{}"}
              />
            ) : (
              <Input
                id={id}
                type={type === "number" || type === "integer" ? "number" : "text"}
                placeholder={type === "mixed" ? typesOf(property).join(" or ") : undefined}
                step={type === "integer" ? 1 : "any"}
                value={typeof value === "string" ? value : ""}
                onChange={(event) => set(event.target.value)}
                aria-invalid={Boolean(errors[name])}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
