import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enforceRateLimit, RateLimitedError } from "@/lib/api-keys/rate-limit";
import { toErrorResponse } from "@/lib/errors";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

describe("rate limit per API key", () => {
  it("allows the limit within a minute, then answers 429 with Retry-After, and resets the next minute", async () => {
    const now = new Date("2026-01-01T10:00:45Z");
    for (let i = 0; i < 3; i++) await enforceRateLimit(handle.db, "key-1", 3, now);
    const error = await enforceRateLimit(handle.db, "key-1", 3, now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    const response = toErrorResponse(error);
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("15");
    // Another key has its own budget; the next minute starts afresh.
    await enforceRateLimit(handle.db, "key-2", 3, now);
    await enforceRateLimit(handle.db, "key-1", 3, new Date("2026-01-01T10:01:01Z"));
  });

  it("counts concurrent requests exactly once each", async () => {
    const now = new Date("2026-01-01T11:00:00Z");
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => enforceRateLimit(handle.db, "burst", 10, now)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(10);
  });

  it("is off when the limit is 0", async () => {
    for (let i = 0; i < 5; i++) await enforceRateLimit(handle.db, "unlimited", 0);
  });
});
