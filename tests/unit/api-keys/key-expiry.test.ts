import { describe, expect, it } from "vitest";
import { hasExpired, resolveExpiry } from "@/lib/api-keys/key-expiry";
import { ValidationError } from "@/lib/errors";

const now = new Date("2026-03-10T12:00:00Z");
const refusal = (input: unknown) => {
  try {
    resolveExpiry(input, now);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error("resolveExpiry accepted it");
};

describe("an API key's expiry", () => {
  it("is never by default, or days from now, or an instant, or the end of a date (UTC)", () => {
    expect(resolveExpiry({}, now)).toBeNull();
    expect(resolveExpiry({ expiresAt: null }, now)).toBeNull();
    expect(resolveExpiry({ expiresInDays: 30 }, now)?.toISOString()).toBe("2026-04-09T12:00:00.000Z");
    expect(resolveExpiry({ expiresAt: "2026-03-11T08:30:00+02:00" }, now)?.toISOString()).toBe(
      "2026-03-11T06:30:00.000Z",
    );
    expect(resolveExpiry({ expiresAt: "2026-03-10" }, now)?.toISOString()).toBe("2026-03-11T00:00:00.000Z");
  });

  it("refuses past instants, bad dates, odd day counts and both at once, each with a clear message", () => {
    expect(refusal({ expiresAt: "2026-03-09" })).toBe("Choose an expiry in the future.");
    expect(refusal({ expiresAt: "next week" })).toMatch(/date like 2027-01-31/);
    expect(refusal({ expiresAt: "2026-02-30" })).toMatch(/date like 2027-01-31/);
    expect(refusal({ expiresInDays: 0 })).toBe("A key expires at least 1 day from now.");
    expect(refusal({ expiresInDays: 1.5 })).toBe("The days until expiry are a whole number.");
    expect(refusal({ expiresInDays: 4000 })).toMatch(/at most 3650 days/);
    expect(refusal({ expiresAt: "2040-01-01" })).toMatch(/at most 3650 days/);
    expect(refusal({ expiresInDays: 5, expiresAt: "2026-04-01" })).toMatch(/not both/);
  });

  it("has expired from its instant on", () => {
    expect(hasExpired(null, now)).toBe(false);
    expect(hasExpired(new Date("2026-03-10T12:00:01Z"), now)).toBe(false);
    expect(hasExpired(now, now)).toBe(true);
  });
});
