import { describe, expect, it } from "vitest";
import { isSupportedNode, minimumNode } from "../../scripts/require-node";

describe("the start script's Node.js check", () => {
  it("takes the minimum from package.json's engines", () => {
    expect(minimumNode()).toEqual([20, 9]);
  });

  // Against a minimum of 20.9: the minimum and anything newer is accepted, anything older refused.
  it.each([
    ["accepts", "20.9.0"],
    ["accepts", "v22.1.0"],
    ["refuses", "20.8.1"],
    ["refuses", "18.19.0"],
  ])("%s Node.js %s", (verdict, version) => {
    expect(isSupportedNode(version, [20, 9])).toBe(verdict === "accepts");
  });
});
