import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { enforceRateLimit, flushRateLimits, RateLimitedError } from "@/lib/api-keys/rate-limit";
import { toErrorResponse } from "@/lib/errors";
import { describeOnPostgres } from "./on-postgres";
import { openSecondInstance } from "./second-instance";
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

  it("stays exact on one instance across its flushes to the database", async () => {
    const now = new Date("2026-01-01T12:00:00Z");
    let allowed = 0;
    for (let i = 0; i < 60; i++) {
      if (await passes(handle.db, "paced", 30, now)) allowed++;
      if (i % 10 === 9) await sleep(300);
    }
    expect(allowed).toBe(30);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const passes = (db: Database, bucket: string, limit: number, now: Date) =>
  enforceRateLimit(db, bucket, limit, now).then(
    () => true,
    (error: unknown) => {
      if (error instanceof RateLimitedError) return false;
      throw error;
    },
  );

describeOnPostgres("rate limit shared by two instances", () => {
  let other: ReturnType<typeof openSecondInstance>;
  beforeAll(() => {
    other = openSecondInstance(handle.db);
  });
  afterAll(() => other?.close());

  it("hands over the count: an instance lets through only what another left of the limit", async () => {
    const now = new Date("2026-01-01T13:00:00Z");
    for (let i = 0; i < 30; i++) expect(await passes(handle.db, "handover", 50, now)).toBe(true);
    await flushRateLimits(handle.db);
    const results: boolean[] = [];
    for (let i = 0; i < 25; i++) results.push(await passes(other.db, "handover", 50, now));
    expect(results.filter(Boolean)).toHaveLength(20);
    expect(results.slice(0, 20).every(Boolean)).toBe(true);
  });

  it("lets through no more than the documented bound when both count at once", async () => {
    // Each instance takes 25 requests a second for 5 s against a limit of 100 a minute. The documented bound:
    // the limit plus what the other instance lets through in ~3 s (75). Without sharing it would be 200.
    const now = new Date("2026-01-01T14:00:00Z");
    const limit = 100;
    const perSecond = 25;
    const run = async (db: Database) => {
      let allowed = 0;
      for (let i = 0; i < perSecond * 5; i++) {
        if (await passes(db, "together", limit, now)) allowed++;
        await sleep(1000 / perSecond);
      }
      return allowed;
    };
    const [first, second] = await Promise.all([run(handle.db), run(other.db)]);
    const total = first + second;
    console.log(
      `[rate limit] two instances let through ${total} (${first} + ${second}) of a limit of ${limit}`,
    );
    expect(total).toBeGreaterThanOrEqual(limit);
    expect(total).toBeLessThanOrEqual(limit + perSecond * 3);
  }, 20_000);
});
