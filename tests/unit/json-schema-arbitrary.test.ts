import Ajv2020 from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryOf, type JsonSchema } from "../contract/json-schema-arbitrary";

const document = {
  components: {
    schemas: {
      Params: {
        type: "object",
        properties: {
          names: {
            type: "array",
            items: { type: "string", minLength: 1, maxLength: 5 },
            minItems: 1,
            maxItems: 3,
          },
          limit: { type: "integer", minimum: 1, maximum: 50 },
          ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
          mode: { enum: ["fast", "exact"] },
          flag: { type: ["boolean", "null"] },
          nested: {
            type: "object",
            properties: { at: { type: "string", format: "date-time" } },
            required: ["at"],
          },
        },
        required: ["names"],
        additionalProperties: false,
      },
    },
  },
  body: {
    oneOf: [
      {
        type: "object",
        properties: { tool: { const: "a" }, params: { $ref: "#/components/schemas/Params" } },
        required: ["tool", "params"],
      },
      { type: "object", properties: { tool: { const: "b" } }, required: ["tool"] },
    ],
  },
};

describe("values generated from a JSON Schema", () => {
  it("are valid by the schema for the keywords tool schemas use, without filtering", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...document, $id: "https://contract.test/doc.json" });
    const validate = ajv.getSchema("https://contract.test/doc.json#/body");
    if (!validate) throw new Error("no schema");
    fc.assert(
      fc.property(arbitraryOf(document.body as JsonSchema, document), (value) => {
        expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it("refuses what it cannot follow rather than generating nonsense", () => {
    expect(() => arbitraryOf({ $ref: "https://elsewhere.test/x.json" }, {})).toThrow(/only local references/);
    expect(() => arbitraryOf({ $ref: "#/nowhere" }, {})).toThrow(/points nowhere/);
    expect(() => arbitraryOf(false, {})).toThrow(/schema false/);
  });
});
