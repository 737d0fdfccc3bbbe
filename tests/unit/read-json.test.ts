import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonText, readJsonBody } from "@/lib/http/read-json";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const problemOf = (text: string) => {
  const parsed = parseJsonText(text);
  return parsed.ok ? "ok" : parsed.problem;
};

describe("parsing a request body's JSON", () => {
  // Nesting up to the bound is taken and one level more refused, before parsing.
  it.each([
    ["arrays nested to the bound", "ok", nested(MAX_JSON_DEPTH)],
    ["arrays nested one level more", "too_deep", nested(MAX_JSON_DEPTH + 1)],
    ["an object around arrays, to the bound", "ok", `{"a":${nested(MAX_JSON_DEPTH - 1)}}`],
    ["an object around arrays, one level more", "too_deep", `{"a":${nested(MAX_JSON_DEPTH)}}`],
    // Refused for its depth without building it.
    ["a deep but broken document", "too_deep", nested(1_000_000).slice(0, -1)],
  ])("reads %s as %s", (_document, problem, text) => {
    expect(problemOf(text)).toBe(problem);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[".repeat(500), b: '"{{{{', c: "\\[[[" });
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  // NUL and half a surrogate pair are refused, but not their escaped spellings or a whole pair.
  it.each([
    ['{"a":"x\\u0000y"}', "nul"],
    ['{"a\\u0000":1}', "nul"],
    ['{"a":"\\\\u0000"}', "ok"],
    ['{"a":"\\ud83d\\ude00"}', "ok"],
    ['{"a":"😀"}', "ok"],
    ['{"a":"\\ud83d"}', "lone_surrogate"],
    ['{"a":"\\ude00"}', "lone_surrogate"],
    ['{"a":"\\ud83d\\u0041"}', "lone_surrogate"],
  ])("reads %s as %s", (text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  it("takes NUL when the caller allows text that cannot be stored", () => {
    expect(parseJsonText('{"a":"x\\u0000"}', { allowUnstorableText: true }).ok).toBe(true);
  });

  it.each([
    ["  ", "empty"],
    ['{"a":', "invalid"],
    ['"\\u0000', "invalid"],
  ])("tells empty and invalid bodies apart: %j is %s", (text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  describe("a request's body", () => {
    const read = (body: string) =>
      readJsonBody(
        new Request("http://localhost/", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      ).catch((error: Error & { status?: number }) => `${error.status} ${error.message}`);

    it.each([
      [
        "it nests too deep",
        nested(100),
        "400 The request body nests arrays and objects more than 64 levels deep.",
      ],
      ["it holds a NUL character", '{"q":"a\\u0000"}', /^400 The request body contains a NUL character/],
      ["it is not JSON", "{", "400 The request body is not valid JSON."],
    ])("is answered with a 400 and a message when %s", async (_problem, body, answer) => {
      expect(await read(body)).toEqual(typeof answer === "string" ? answer : expect.stringMatching(answer));
    });

    it("is read when it is fine", async () => {
      expect(await read('{"q":"fine"}')).toEqual({ q: "fine" });
    });
  });
});
