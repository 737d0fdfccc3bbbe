import { expect, it } from "vitest";
import { plural } from "@/lib/plural";

it("puts the noun in the number its count asks for", () => {
  expect(plural(1, "tool")).toBe("1 tool");
  expect(plural(0, "tool")).toBe("0 tools");
  expect(plural(2, "capability", "capabilities")).toBe("2 capabilities");
  expect(plural(1, "capability", "capabilities")).toBe("1 capability");
  expect(plural(1200, "call")).toBe("1,200 calls");
});
