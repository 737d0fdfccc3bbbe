import { expect, it } from "vitest";
import { plural } from "@/lib/plural";

it.each<[string, number, string, string?]>([
  ["1 tool", 1, "tool"],
  ["0 tools", 0, "tool"],
  ["2 capabilities", 2, "capability", "capabilities"],
  ["1 capability", 1, "capability", "capabilities"],
  ["1,200 calls", 1200, "call"],
])("puts the noun in the number its count asks for: %s", (expected, count, singular, pluralForm) => {
  expect(plural(count, singular, pluralForm)).toBe(expected);
});
