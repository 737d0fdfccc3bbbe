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

  it("quotes cells with quotes, commas and line breaks (a bare carriage return included)", () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a\nb")).toBe('"a\nb"');
    expect(csvCell("a\rb")).toBe('"a\rb"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it("leaves ordinary values alone", () => {
    expect(csvCell("everything_get-sum")).toBe("everything_get-sum");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
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
