import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "@/lib/http/csv";

describe("CSV cells", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    // Leading tabs and line breaks are dropped, and the formula after them neutralized.
    ["\t=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["\r=1+1", "'=1+1"],
    ["\n=1+1-2", "'=1+1-2"],
    ["\r\n\t@SUM(A1)", "'@SUM(A1)"],
    ["\n\n+1", "'+1"],
  ])("neutralizes a cell a spreadsheet would run as a formula: %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("never lets a line of the file start a formula, whatever a caller named its tool", () => {
    const names = ["\n=1+1-x", "\r\n=2+2", "\t\n-3", "ok", "\n\r@x"];
    const lines = toCsv(names.map((name) => [name, 1])).split(/\r\n|\r|\n/);
    for (const line of lines) expect(line).not.toMatch(/^[=+\-@]/);
  });

  it.each([
    ['say "hi"', '"say ""hi"""'],
    ["a,b", '"a,b"'],
    ["a\nb", '"a\nb"'],
    ["a\rb", '"a\rb"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
  ])(
    "quotes cells with quotes, commas and line breaks (a bare carriage return included): %j",
    (value, expected) => {
      expect(csvCell(value)).toBe(expected);
    },
  );

  it.each([
    ["everything_get-sum", "everything_get-sum"],
    [42, "42"],
    [0, "0"],
    [null, ""],
    [undefined, ""],
  ])("leaves ordinary values alone: %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("joins rows into lines", () => {
    expect(
      toCsv([
        ["tool", "calls"],
        ["=x", 3],
      ]),
    ).toBe("tool,calls\n'=x,3\n");
  });
});
