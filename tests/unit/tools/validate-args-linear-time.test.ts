import { describe, expect, it } from "vitest";
import { capabilityInputSchema } from "@/lib/capabilities/names";
import { AppError } from "@/lib/errors";
import { compileToolSchema, validateToolArgs } from "@/lib/tools/validate-args";

const withPattern = (pattern: string) => ({
  type: "object",
  properties: { value: { type: "string", pattern } },
});

/** Whether the arguments pass; a refusal must be a 4xx AppError naming what is wrong. */
function accepts(schema: Record<string, unknown>, args: Record<string, unknown>): boolean {
  try {
    validateToolArgs(schema, args);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return false;
  }
}

function refusal(schema: Record<string, unknown>, args: Record<string, unknown>): string {
  try {
    validateToolArgs(schema, args);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error("the arguments were accepted");
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

describe("tool argument validation runs in linear time", () => {
  // A backtracking engine needs about 2^n steps here: seconds at 28 characters, years at 50.
  it("checks a catastrophic pattern against a 28-character argument in well under a second", () => {
    const schema = withPattern("^(a+)+$");
    const { value, ms } = timed(() => accepts(schema, { value: `${"a".repeat(28)}!` }));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(1000);
  });

  it.each<[string, string, string, boolean]>([
    ["^(a+)+$", "50,000 a's and a !", `${"a".repeat(50_000)}!`, false],
    ["^(a+)+$", "50,000 a's", "a".repeat(50_000), true],
    ["^(a|a)*$", "50,000 a's and a b", `${"a".repeat(50_000)}b`, false],
    ["^(\\w+\\s?)*$", "10,000 words and a !", `${"word ".repeat(10_000)}!`, false],
    [
      "^([a-z0-9]+[-.]?)*[a-z0-9]+@example\\.com$",
      "30,000 a's at example.co",
      `${"a".repeat(30_000)}@example.co`,
      false,
    ],
  ])(
    "checks the catastrophic pattern %s against %s in well under a second",
    (pattern, _argument, argument, expected) => {
      const { value, ms } = timed(() => accepts(withPattern(pattern), { value: argument }));
      expect(value).toBe(expected);
      expect(ms).toBeLessThan(1000);
    },
  );

  it("checks patternProperties keys and propertyNames in linear time too", () => {
    const schema = {
      type: "object",
      patternProperties: { "^(a+)+$": { type: "number" } },
      additionalProperties: false,
    };
    const { value, ms } = timed(() => [
      accepts(schema, { [`${"a".repeat(40)}!`]: 1 }),
      accepts(schema, { [`${"a".repeat(40)}`]: 1 }),
      accepts(schema, { [`${"a".repeat(40)}`]: "one" }),
    ]);
    expect(value).toEqual([false, true, false]);
    expect(ms).toBeLessThan(1000);
    const names = { type: "object", propertyNames: { pattern: "^(a+)+$" } };
    expect(accepts(names, { [`${"a".repeat(40)}!`]: 1 })).toBe(false);
  });
});

describe("patterns still mean what they meant", () => {
  const cases: [string, string, boolean][] = [
    ["^[a-z]+$", "router", true],
    ["^[a-z]+$", "Router", false],
    ["^[a-z]+$", "router\n", false],
    ["[0-9]", "abc1def", true],
    ["^\\d{3}-\\d{4}$", "555-1234", true],
    ["^\\d{3}-\\d{4}$", "555-12345", false],
    ["^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$", "ada@example.org", true],
    ["^https?://", "ftp://example.org", false],
    ["^a/b$", "a/b", true],
    // Unicode: ajv compiles patterns with the `u` flag, so a code point is one character.
    ["^.$", "😀", true],
    ["^\\p{L}+$", "Ünïcödé", true],
    ["^\\p{L}+$", "abc1", false],
    ["^\\p{Lu}", "Élan", true],
    ["^caf\\u00e9$", "café", true],
    ["^\\u{1F600}$", "😀", true],
    ["^[^]$", "\n", true],
    ["^(?<year>\\d{4})-(?<month>\\d{2})$", "2024-05", true],
    ["(?<=\\$)\\d+", "costs $42", true],
    ["(?<!\\$)\\b\\d+", "$42", false],
    // What JavaScript's `.` and `\s` mean, not RE2's: `.` stops at \r, \s includes non-breaking spaces.
    ["^.+$", "a\rb", false],
    ["^.+$", "a\u2028b", false],
    ["^\\S+$", "a\u00a0b", false],
    ["^\\s+$", "\u00a0\u3000\ufeff\v", true],
    ["^[\\s\\d]+$", "1\u00a02", true],
    ["^[^\\s]+$", "a\u00a0b", false],
    ["^[\\S]+$", "ab", true],
    ["^\\.$", ".", true],
    ["^[.]$", "x", false],
    ["^\\\\.$", "\\x", true],
    ["^\\cJ$", "\n", true],
  ];
  it.each(cases)("%s against %j is %s, as in JavaScript", (pattern, argument, expected) => {
    expect(new RegExp(pattern, "u").test(argument)).toBe(expected);
    expect(accepts(withPattern(pattern), { value: argument })).toBe(expected);
  });

  it("checks a server's pattern that is valid only without the u flag, which a capability may not use", () => {
    const schema = withPattern("^\\@[a-z]+$");
    expect(accepts(schema, { value: "@ada" })).toBe(true);
    expect(accepts(schema, { value: "ada" })).toBe(false);
    expect(compileToolSchema(schema)).toMatch(/not a valid regular expression/);
  });

  it("names the field whose pattern failed", () => {
    expect(refusal(withPattern("^[a-z]+$"), { value: "NO" })).toMatch(/value must match pattern/);
  });

  it("agrees with JavaScript on every BMP character for `.`, `\\s` and `\\S`", () => {
    const chars = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code));
    const patterns = ["^.$", "^\\s$", "^\\S$", "^[\\s]$", "^[\\S]$", "^[^\\s]$", "^[x\\s]$"];
    for (const pattern of patterns) {
      const native = new RegExp(pattern, "u");
      const expected = chars.flatMap((char, code) => (native.test(char) ? [] : [code]));
      const schema = {
        type: "object",
        properties: { value: { type: "array", items: { type: "string", pattern } } },
      };
      let refused: number[] = [];
      try {
        validateToolArgs(schema, { value: chars });
      } catch (error) {
        refused = Object.keys((error as AppError).details?.fields ?? {}).map((field) =>
          Number(field.slice(6)),
        );
      }
      expect({ pattern, refused: refused.length }).toEqual({ pattern, refused: expected.length });
      expect(refused).toEqual(expected);
    }
    // Seven passes over 65,536 characters: seconds on a busy machine, not a measure of speed.
  }, 60_000);
});

describe("patterns that cannot be checked in linear time", () => {
  const unsupported = ["^(?=.*\\d)\\w+$", "^(?!admin$)\\w+$", "^(a)\\1$", "^(?<x>a)\\k<x>$"];

  it.each(unsupported)("refuses a call whose %s cannot be checked, with a clear message", (pattern) => {
    const message = refusal(withPattern(pattern), { value: "a1" });
    expect(message).toContain(pattern);
    expect(message).toMatch(/pattern this server cannot check safely/);
  });

  it("refuses a patternProperties key that cannot be checked instead of skipping it", () => {
    const schema = { type: "object", patternProperties: { "^(?=x)": { type: "number" } } };
    expect(refusal(schema, { xyz: "not a number" })).toMatch(/cannot check safely/);
  });

  it("accepts a call that does not reach the pattern", () => {
    expect(accepts(withPattern("^(?=.*\\d)\\w+$"), {})).toBe(true);
  });

  it.each(unsupported)("reports %s to a capability author at save time", (pattern) => {
    expect(compileToolSchema(withPattern(pattern))).toMatch(/cannot be checked safely/);
  });

  it("refuses to save a capability whose parameters use such a pattern, saying why", () => {
    const parsed = capabilityInputSchema.safeParse({
      namespace: "accounts",
      action: "create",
      code: "return args;",
      parametersSchema: withPattern("^(?!admin$)\\w+$"),
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(
      /^The parameters schema is not valid: the pattern "\^\(\?!admin\$\)\\w\+\$" cannot be checked safely: it uses a lookahead/,
    );
  });

  it("reports an invalid pattern at save time, and accepts ordinary ones", () => {
    expect(compileToolSchema(withPattern("(unclosed"))).toMatch(/not a valid regular expression/);
    expect(compileToolSchema(withPattern("^[a-z]+$"))).toBeNull();
    expect(compileToolSchema(withPattern("^(a+)+$"))).toBeNull();
  });
});
