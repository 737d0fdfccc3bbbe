import { describe, expect, it } from "vitest";
import { ProcessSlots } from "@/lib/mcp/client/process-slots";

describe("ProcessSlots", () => {
  it("reports the organization's limit before the server's, and counts each organization apart", () => {
    const slots = new ProcessSlots({ total: 3, perOrganization: 2 });
    slots.take("a");
    expect(slots.reached("a")).toBeUndefined();
    slots.take("a");
    expect(slots.reached("a")).toBe("organization");
    expect(slots.reached("b")).toBeUndefined();
    slots.take("b");
    expect(slots.reached("b")).toBe("server");
    expect(slots.reached("a")).toBe("organization");
    expect([slots.count, slots.countOf("a"), slots.countOf("b"), slots.countOf("c")]).toEqual([3, 2, 1, 0]);
  });

  it("frees a place once, however often it is released", () => {
    const slots = new ProcessSlots({ total: 1, perOrganization: 1 });
    const slot = slots.take("a");
    slot.release();
    slot.release();
    expect([slots.count, slots.countOf("a")]).toEqual([0, 0]);
    slots.take("b");
    expect(slots.reached("a")).toBe("server");
  });

  it("has no limit where it is 0", () => {
    const slots = new ProcessSlots({ total: 0, perOrganization: 0 });
    for (let i = 0; i < 100; i++) slots.take("a");
    expect(slots.reached("a")).toBeUndefined();
    expect(slots.max("server")).toBe(0);
  });
});
