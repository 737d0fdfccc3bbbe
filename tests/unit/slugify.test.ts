import { describe, expect, it } from "vitest";
import { orgSlugSchema, slugify } from "@/lib/orgs/schemas";

describe("slugify", () => {
  it.each([
    ["Ada Labs", "ada-labs"],
    ["  Crème Brûlée & Co. ", "creme-brulee-co"],
    ["!!!", "org"],
  ])("makes %j into %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it.each(["Ada Labs", "x".repeat(80), "-a-", "Ünïcode"])("makes a valid slug from %s", (name) => {
    expect(orgSlugSchema.safeParse(slugify(name)).success).toBe(true);
  });
});
