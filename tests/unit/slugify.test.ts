import { describe, expect, it } from "vitest";
import { orgSlugSchema, slugify } from "@/lib/orgs/schemas";

describe("slugify", () => {
  it("makes valid slugs from any name", () => {
    expect(slugify("Ada Labs")).toBe("ada-labs");
    expect(slugify("  Crème Brûlée & Co. ")).toBe("creme-brulee-co");
    expect(slugify("!!!")).toBe("org");
    for (const name of ["Ada Labs", "x".repeat(80), "-a-", "Ünïcode"]) {
      expect(orgSlugSchema.safeParse(slugify(name)).success).toBe(true);
    }
  });
});
