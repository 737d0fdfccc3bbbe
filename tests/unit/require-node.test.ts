import { describe, expect, it } from "vitest";
import { isSupportedNode, minimumNode } from "../../scripts/require-node";

describe("the start script's Node.js check", () => {
  it("takes the minimum from package.json's engines", () => {
    expect(minimumNode()).toEqual([20, 9]);
  });

  it("accepts the minimum and anything newer, and refuses anything older", () => {
    expect(isSupportedNode("20.9.0", [20, 9])).toBe(true);
    expect(isSupportedNode("v22.1.0", [20, 9])).toBe(true);
    expect(isSupportedNode("20.8.1", [20, 9])).toBe(false);
    expect(isSupportedNode("18.19.0", [20, 9])).toBe(false);
  });
});
