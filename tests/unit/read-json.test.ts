import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonText, readJsonBody } from "@/lib/http/read-json";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const problemOf = (text: string) => {
  const parsed = parseJsonText(text);
  return parsed.ok ? "ok" : parsed.problem;
};

describe("parsing a request body's JSON", () => {
  it("takes nesting up to the bound and refuses one level more, before parsing", () => {
    expect(problemOf(nested(MAX_JSON_DEPTH))).toBe("ok");
    expect(problemOf(nested(MAX_JSON_DEPTH + 1))).toBe("too_deep");
    expect(problemOf(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).toBe("ok");
    expect(problemOf(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe("too_deep");
    // A deep but broken document is refused for its depth without building it.
    expect(problemOf(nested(1_000_000).slice(0, -1))).toBe("too_deep");
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[".repeat(500), b: '"{{{{', c: "\\[[[" });
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it("refuses NUL and half a surrogate pair, but not their escaped spellings or a whole pair", () => {
    expect(problemOf('{"a":"x\\u0000y"}')).toBe("nul");
    expect(problemOf('{"a\\u0000":1}')).toBe("nul");
    expect(problemOf('{"a":"\\\\u0000"}')).toBe("ok");
    expect(problemOf('{"a":"\\ud83d\\ude00"}')).toBe("ok");
    expect(problemOf('{"a":"😀"}')).toBe("ok");
    expect(problemOf('{"a":"\\ud83d"}')).toBe("lone_surrogate");
    expect(problemOf('{"a":"\\ude00"}')).toBe("lone_surrogate");
    expect(problemOf('{"a":"\\ud83d\\u0041"}')).toBe("lone_surrogate");
    expect(parseJsonText('{"a":"x\\u0000"}', { allowUnstorableText: true }).ok).toBe(true);
  });

  it("tells empty and invalid bodies apart", () => {
    expect(problemOf("  ")).toBe("empty");
    expect(problemOf('{"a":')).toBe("invalid");
    expect(problemOf('"\\u0000')).toBe("invalid");
  });

  it("answers each problem with a 400 and a message", async () => {
    const read = (body: string) =>
      readJsonBody(
        new Request("http://localhost/", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      ).catch((error: Error & { status?: number }) => `${error.status} ${error.message}`);
    expect(await read(nested(100))).toBe(
      "400 The request body nests arrays and objects more than 64 levels deep.",
    );
    expect(await read('{"q":"a\\u0000"}')).toMatch(/^400 The request body contains a NUL character/);
    expect(await read("{")).toBe("400 The request body is not valid JSON.");
    expect(await read('{"q":"fine"}')).toEqual({ q: "fine" });
  });
});
