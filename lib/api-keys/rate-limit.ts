import { lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { AppError } from "@/lib/errors";

const WINDOW_MS = 60_000;

export class RateLimitedError extends AppError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      "rate_limit:api_key",
      `Rate limit of ${limit} requests a minute reached for this API key. Retry in ${retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(retryAfterSeconds) },
      },
    );
  }
}

/**
 * Counts `cost` requests (one, unless a request carries several, like a JSON-RPC batch) for the bucket in the
 * current minute, atomically in the database, and throws once the limit is passed. A fixed window is coarse,
 * but one upsert per request and the same answer on every instance.
 */
export async function enforceRateLimit(
  db: Database,
  bucket: string,
  limit: number,
  now = new Date(),
  cost = 1,
): Promise<void> {
  if (limit <= 0) return;
  if (!Number.isInteger(cost) || cost < 1)
    throw new RangeError(`A rate-limit cost is a whole number ≥ 1, not ${cost}.`);
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart, count: cost })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + ${cost}` },
    })
    .returning({ count: rateLimitCounters.count });
  // Old windows are dead weight; sweep them now and then rather than on every request.
  if (Math.random() < 0.01) {
    await db
      .delete(rateLimitCounters)
      .where(lt(rateLimitCounters.windowStart, new Date(windowStart.getTime() - 5 * WINDOW_MS)));
  }
  if ((row?.count ?? 0) > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
    throw new RateLimitedError(limit, retryAfter);
  }
}
