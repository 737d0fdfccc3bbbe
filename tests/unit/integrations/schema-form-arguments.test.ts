import { describe, expect, it } from "vitest";
import { defaultsOf, toArguments } from "@/components/integrations/schema-form";

describe("the tool runner's arguments", () => {
  it("types a value of oneOf or anyOf string|number by what was typed", () => {
    for (const key of ["oneOf", "anyOf"] as const) {
      const schema = {
        type: "object",
        properties: { id: { [key]: [{ type: "string" }, { type: "number" }] } },
      };
      expect(toArguments(schema, { id: "42" }).args).toEqual({ id: 42 });
      expect(toArguments(schema, { id: "4.5" }).args).toEqual({ id: 4.5 });
      expect(toArguments(schema, { id: "forty-two" }).args).toEqual({ id: "forty-two" });
    }
  });

  it("refuses what none of the types reads, and reads JSON for objects in a union", () => {
    const schema = {
      type: "object",
      properties: {
        n: { type: ["integer", "boolean"] },
        o: { anyOf: [{ type: "object" }, { type: "null" }] },
      },
    };
    expect(toArguments(schema, { n: "x", o: '{"a":1}' })).toEqual({
      args: { o: { a: 1 } },
      errors: { n: "Enter integer or boolean." },
    });
    expect(toArguments(schema, { n: "true" }).args).toEqual({ n: true });
  });

  it("sends a choice as the value it stands for, a number as a number", () => {
    const schema = {
      type: "object",
      properties: {
        level: {
          oneOf: [
            { const: 1, title: "Low" },
            { const: 2, title: "High" },
          ],
        },
        kind: { enum: ["a", 3] },
      },
    };
    expect(toArguments(schema, { level: "2", kind: "3" }).args).toEqual({ level: 2, kind: 3 });
  });

  it("shows each default in its field, and sends it only while it is shown", () => {
    const schema = {
      type: "object",
      properties: {
        resourceType: { type: "string", enum: ["Text", "Blob"], default: "Text" },
        resourceId: { type: "number", default: 1 },
        verbose: { type: "boolean", default: false },
        tags: { type: "array", default: ["x"] },
        plain: { type: "string" },
      },
    };
    const shown = defaultsOf(schema);
    expect(shown).toEqual({ resourceType: "Text", resourceId: "1", verbose: false, tags: '["x"]' });
    expect(toArguments(schema, shown).args).toEqual({
      resourceType: "Text",
      resourceId: 1,
      verbose: false,
      tags: ["x"],
    });
    // Emptied by the person: left out.
    expect(toArguments(schema, { ...shown, resourceType: "", resourceId: "" }).args).toEqual({
      verbose: false,
      tags: ["x"],
    });
  });
});
