import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formErrorsOf, SchemaForm, toArguments } from "@/components/integrations/schema-form";

const SCHEMA = {
  type: "object",
  properties: {
    seats: { type: "integer", minimum: 1, maximum: 10 },
    email: { type: "string", format: "email" },
    options: { type: "object" },
  },
  required: ["seats"],
};

describe("the tool runner's form", () => {
  it("puts the server's messages on the fields they are about, nested paths on their top-level field", () => {
    expect(
      formErrorsOf(SCHEMA, {
        seats: ["seats must be <= 10"],
        email: ['email must match format "email"'],
        "options.depth": ["options.depth must be number"],
        "options.mode": ["options.mode is required"],
        surprise: ["surprise is not an accepted parameter"],
        params: ["params must be object"],
      }),
    ).toEqual({
      seats: "seats must be <= 10",
      email: 'email must match format "email"',
      options: "options.depth must be number options.mode is required",
    });
    expect(formErrorsOf(SCHEMA, undefined)).toEqual({});
  });

  it("shows each message next to its field", () => {
    const html = renderToStaticMarkup(
      createElement(SchemaForm, {
        schema: SCHEMA,
        values: { seats: "11" },
        errors: formErrorsOf(SCHEMA, { seats: ["seats must be <= 10"] }),
        onChange: () => {},
      }),
    );
    expect(html).toContain('data-testid="arg-seats-error">seats must be &lt;= 10</p>');
    expect(html).not.toContain("arg-email-error");
  });

  it("checks only what the browser can (types and required), leaving ranges and formats to the server", () => {
    expect(toArguments(SCHEMA, { email: "x" }).errors).toEqual({ seats: "Required." });
    expect(toArguments(SCHEMA, { seats: "11", email: "not an email" })).toEqual({
      args: { seats: 11, email: "not an email" },
      errors: {},
    });
  });

  it("offers titled choices (oneOf with const and title) by their titles, sending their values", () => {
    const schema = {
      type: "object",
      properties: {
        hero: {
          type: "string",
          oneOf: [
            { const: "hero-1", title: "Superman" },
            { const: "hero-2", title: "Wonder Woman" },
          ],
        },
      },
    };
    const html = renderToStaticMarkup(
      createElement(SchemaForm, { schema, values: {}, errors: {}, onChange: () => {}, idPrefix: "q1" }),
    );
    expect(html).toMatch(/<select [^>]*id="q1-hero"/);
    expect(html).toContain('<option value="hero-2">Wonder Woman</option>');
    expect(toArguments(schema, { hero: "hero-2" }).args).toEqual({ hero: "hero-2" });
  });
});
