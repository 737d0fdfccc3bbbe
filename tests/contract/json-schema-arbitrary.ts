import fc from "fast-check";

/** A JSON Schema (2020-12, as OpenAPI 3.1 embeds it): an object of keywords, or true/false. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

const MAX_ITEMS = 4;
const MAX_DEPTH = 6;

function keywords(schema: JsonSchema): Record<string, unknown> {
  return typeof schema === "object" ? schema : {};
}

/** Follows a local reference (`#/components/schemas/X`) inside the document it came from. */
function resolve(root: unknown, ref: string): JsonSchema {
  if (!ref.startsWith("#/")) throw new Error(`only local references are followed, not ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split("/"))
    node = (node as Record<string, unknown>)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  if (node === undefined) throw new Error(`${ref} points nowhere`);
  return node as JsonSchema;
}

// One code point (what JSON Schema counts lengths in): mostly printable ASCII, sometimes anything else Unicode has
// but U+0000, which the document says is refused in any string with a 400 (PostgreSQL cannot store it).
const codePoint = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
    { arbitrary: fc.integer({ min: 1, max: 0x10ffff }).filter((n) => n < 0xd800 || n > 0xdfff), weight: 1 },
  )
  .map((n) => String.fromCodePoint(n));

const bound = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

function stringOf(s: Record<string, unknown>): fc.Arbitrary<string> {
  const minLength = bound(s.minLength) ?? 0;
  const declaredMax = bound(s.maxLength);
  const maxLength = Math.max(minLength, Math.min(declaredMax ?? minLength + 20, minLength + 40));
  if (s.format === "uri" || s.format === "url") return fc.webUrl();
  if (s.format === "email") return fc.emailAddress();
  if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (s.format === "uuid") return fc.uuid();
  const text = fc.string({ unit: codePoint, minLength, maxLength });
  // Now and then exactly as long as allowed: where a server counting otherwise than the schema goes wrong.
  if (declaredMax === undefined || declaredMax > 5000 || declaredMax <= maxLength) return text;
  return fc.oneof(
    { arbitrary: text, weight: 4 },
    { arbitrary: fc.string({ unit: codePoint, minLength: declaredMax, maxLength: declaredMax }), weight: 1 },
  );
}

function numberOf(s: Record<string, unknown>, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = bound(s.exclusiveMinimum);
  const exclusiveMax = bound(s.exclusiveMaximum);
  const min = bound(s.minimum) ?? (exclusiveMin !== undefined ? exclusiveMin : -1e6);
  const max = bound(s.maximum) ?? (exclusiveMax !== undefined ? exclusiveMax : 1e6);
  const base = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return base.filter(
    (n) =>
      (exclusiveMin === undefined || n > exclusiveMin) && (exclusiveMax === undefined || n < exclusiveMax),
  );
}

/**
 * Values shaped by a schema, for the keywords OpenAPI documents of tools use: type, const, enum, properties,
 * required, items, lengths and bounds, formats, anyOf/oneOf, local $ref. What it cannot express (pattern,
 * uniqueness, exclusive oneOf), the caller filters with a validator: these are candidates, the validator decides.
 */
export function arbitraryOf(schema: JsonSchema, root: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (schema === false) throw new Error("no value satisfies the schema false");
  const s = keywords(schema);
  if (typeof s.$ref === "string") return arbitraryOf(resolve(root, s.$ref), root, depth);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((branch) => arbitraryOf(branch, root, depth)));
  if (Array.isArray(s.type))
    return fc.oneof(...(s.type as string[]).map((type) => arbitraryOf({ ...s, type }, root, depth)));
  switch (s.type) {
    case "string":
      return stringOf(s);
    case "integer":
      return numberOf(s, true);
    case "number":
      return numberOf(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = bound(s.minItems) ?? 0;
      const maxLength = Math.max(minLength, Math.min(bound(s.maxItems) ?? MAX_ITEMS, MAX_ITEMS));
      const items = (s.items ?? true) as JsonSchema;
      return fc.array(arbitraryOf(items, root, depth + 1), { minLength, maxLength });
    }
    case "object":
      return objectOf(s, root, depth);
    default:
      // No type: an object when it lists properties, else any JSON value.
      if (s.properties) return objectOf(s, root, depth);
      return depth >= MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(s: Record<string, unknown>, root: unknown, depth: number): fc.Arbitrary<unknown> {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  // Past the depth limit only what is required, so a recursive schema still ends.
  const names = Object.keys(properties).filter((name) => depth < MAX_DEPTH || required.has(name));
  const shape = Object.fromEntries(
    names.map((name) => [name, arbitraryOf(properties[name] ?? true, root, depth + 1)]),
  );
  return fc.record(shape, { requiredKeys: names.filter((name) => required.has(name)) });
}
