import { ValidationError } from "@/lib/errors";

/** A field a person typed as JSON: empty is absent, anything unparsable is a 400 with `notJson` for the field. */
export function parseJsonField(value: string, name: string, notJson: string): unknown {
  const text = value.trim();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(notJson, { [name]: [notJson] });
  }
}
