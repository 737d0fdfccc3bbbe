import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "@/lib/http/csv";

describe("CSV cells", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    // A leading tab or carriage return is skipped by some spreadsheets before the formula that follows.
    ["\t=cmd|' /C calc'!A0", "'\t=cmd|' /C calc'!A0"],
    ["\r=1+1", '"\'\r=1+1"'],
  ])("neutralizes a cell a spreadsheet would run as a formula: %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
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
