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
  // The time is 2026-03-10T12:00:00Z.
  it.each([
    ["never, by default", {}, null],
    ["never, when set to null", { expiresAt: null }, null],
    ["days from now", { expiresInDays: 30 }, "2026-04-09T12:00:00.000Z"],
    ["an instant", { expiresAt: "2026-03-11T08:30:00+02:00" }, "2026-03-11T06:30:00.000Z"],
    ["the end of a date (UTC)", { expiresAt: "2026-03-10" }, "2026-03-11T00:00:00.000Z"],
  ])("is %s: %j", (_kind, input, expected) => {
    expect(resolveExpiry(input, now)?.toISOString() ?? null).toBe(expected);
  });

  // Past instants, bad dates, odd day counts and both at once are refused, each with a clear message.
  it.each<[unknown, string | RegExp]>([
    [{ expiresAt: "2026-03-09" }, "Choose an expiry in the future."],
    [{ expiresAt: "next week" }, /date like 2027-01-31/],
    [{ expiresAt: "2026-02-30" }, /date like 2027-01-31/],
    [{ expiresInDays: 0 }, "A key expires at least 1 day from now."],
    [{ expiresInDays: 1.5 }, "The days until expiry are a whole number."],
    [{ expiresInDays: 4000 }, /at most 3650 days/],
    [{ expiresAt: "2040-01-01" }, /at most 3650 days/],
    [{ expiresInDays: 5, expiresAt: "2026-04-01" }, /not both/],
  ])("refuses %j, saying %s", (input, message) => {
    expect(refusal(input)).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
  });

  it.each([
    ["has not expired without an expiry", null, false],
    ["has not expired a second before its instant", new Date("2026-03-10T12:00:01Z"), false],
    ["has expired from its instant on", now, true],
  ])("%s", (_case, expiresAt, expired) => {
    expect(hasExpired(expiresAt, now)).toBe(expired);
  });
});
