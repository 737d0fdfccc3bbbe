import { lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { buffering, drained, perDatabase, serialFlusher } from "@/db/write-behind";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { countRateLimited } from "@/lib/metrics/record";

const WINDOW_MS = 60_000;
/** How often an instance adds its requests to the shared counts and reads every instance's total back. */
const FLUSH_INTERVAL_MS = 1_000;
/** A total read longer ago than this (an instance that was idle) is read again before a request is let through. */
const STALE_MS = 2 * FLUSH_INTERVAL_MS;

// What a limit's message calls the one it counts, by its bucket's kind ("api-key" of "api-key:<id>").
const LIMITED: Record<string, string> = {
  "api-key": "this API key",
  "oauth-grant": "this authorized client",
  "oauth-register": "client registrations from this address",
};

export class RateLimitedError extends AppError {
  constructor(limit: number, retryAfterSeconds: number, bucket = "api-key") {
    const limited = LIMITED[bucket.split(":")[0] ?? ""] ?? "this API key";
    super(
      "rate_limit:api_key",
      `Rate limit of ${limit} requests a minute reached for ${limited}. Retry in ${retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(retryAfterSeconds) },
      },
    );
  }
}

/** One bucket's count in one window, as this instance knows it. */
interface Counter {
  bucket: string;
  windowStart: Date;
  /** The count in the database at this instance's last flush: every instance's requests written until then. */
  written: number;
  /** This instance's requests being written right now. */
  writing: number;
  /** This instance's requests since, not written yet. */
  pending: number;
  /** When `written` was read (performance.now()); -Infinity: never. */
  readAt: number;
  /** A request waits for the next flush to read the total, even with nothing to add. */
  wantsRead: boolean;
  reading?: Promise<void>;
  usedAt: number;
}

/**
 * The rate-limit counts of one database in this process. Requests are counted here and added to the shared
 * `rate_limit_counters` about once a second, in one upsert for every bucket that returns every instance's total;
 * a request is decided on that total plus this instance's requests since, so one instance alone counts exactly.
 */
class RateCounters {
  private readonly counters = new Map<string, Counter>();
  private readonly flusher = serialFlusher(
    () => this.write(),
    FLUSH_INTERVAL_MS,
    (error: unknown) => logger.warn("rate-limit counts not written", { err: error }),
  );
  readonly flush = this.flusher.flush;
  private readonly schedule = this.flusher.schedule;

  constructor(private readonly db: Database) {}

  /** Counts `cost` requests and returns the bucket's count in the window with them. */
  async charge(bucket: string, windowStart: Date, cost: number): Promise<number> {
    const key = `${bucket}\u0000${windowStart.getTime()}`;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = {
        bucket,
        windowStart,
        written: 0,
        writing: 0,
        pending: 0,
        readAt: -Infinity,
        wantsRead: false,
        usedAt: 0,
      };
      this.counters.set(key, counter);
    }
    counter.usedAt = performance.now();
    if (performance.now() - counter.readAt > STALE_MS) {
      // A fresh process, a new window or an idle spell: what the other instances counted is read first, once for
      // all the requests that arrive meanwhile.
      const stale = counter;
      const lastRead = stale.readAt;
      stale.wantsRead = true;
      stale.reading ??= this.flush().finally(() => {
        stale.reading = undefined;
      });
      await stale.reading;
      // No read got through (the database is away, restarting say): the caller hears so, and may try again. A
      // read that did, however slowly, counts.
      if (stale.readAt === lastRead)
        throw new AppError(
          "unavailable:database",
          "The rate limit of this API key could not be checked: the database does not answer. Try again shortly.",
          { headers: { "Retry-After": "2" } },
        );
    }
    // From here on nothing waits, so concurrent requests each get a count of their own.
    counter.pending += cost;
    buffering(this.db, this.flush);
    this.schedule();
    return counter.written + counter.writing + counter.pending;
  }

  private async write() {
    const now = performance.now();
    for (const [key, counter] of this.counters)
      if (!counter.pending && !counter.writing && !counter.wantsRead && now - counter.usedAt > WINDOW_MS)
        this.counters.delete(key);
    // Sorted, so that instances writing the same buckets at once take their row locks in the same order.
    const batch = [...this.counters.entries()]
      .filter(([, counter]) => counter.pending > 0 || counter.wantsRead)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, counter]) => {
        const increment = counter.pending;
        counter.pending = 0;
        counter.writing += increment;
        counter.wantsRead = false;
        return { counter, increment };
      });
    if (batch.length === 0) {
      drained(this.db, this.flush);
      return;
    }
    try {
      const rows = await this.db
        .insert(rateLimitCounters)
        .values(
          batch.map(({ counter, increment }) => ({
            bucket: counter.bucket,
            windowStart: counter.windowStart,
            count: increment,
          })),
        )
        .onConflictDoUpdate({
          target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
          set: { count: sql`${rateLimitCounters.count} + excluded.count` },
        })
        .returning({
          bucket: rateLimitCounters.bucket,
          windowStart: rateLimitCounters.windowStart,
          count: rateLimitCounters.count,
        });
      const totals = new Map(
        rows.map((row) => [`${row.bucket}\u0000${row.windowStart.getTime()}`, row.count]),
      );
      for (const { counter, increment } of batch) {
        counter.writing -= increment;
        counter.written =
          totals.get(`${counter.bucket}\u0000${counter.windowStart.getTime()}`) ?? counter.written;
        counter.readAt = now;
      }
    } catch (error) {
      for (const { counter, increment } of batch) {
        counter.writing -= increment;
        counter.pending += increment;
      }
      logger.warn("rate-limit counts not written yet; trying again", { err: error });
      this.schedule();
      return;
    }
    // Old windows are dead weight; sweep them now and then rather than on every flush.
    if (Math.random() < 0.01) {
      const newest = Math.max(...batch.map(({ counter }) => counter.windowStart.getTime()));
      await this.db
        .delete(rateLimitCounters)
        .where(lt(rateLimitCounters.windowStart, new Date(newest - 5 * WINDOW_MS)))
        .catch((error: unknown) => logger.warn("old rate-limit counts not swept", { err: error }));
    }
    if ([...this.counters.values()].some((counter) => counter.pending > 0)) this.schedule();
    else drained(this.db, this.flush);
  }
}

const countersOf = perDatabase("rateCounters", (db) => new RateCounters(db));

/**
 * Counts `cost` requests (one, unless a request carries several, like a JSON-RPC batch) for the bucket in the
 * current minute and throws once the limit is passed. A fixed window, counted in memory and shared through the
 * database about once a second (see RateCounters): exact on one instance; with several, each may let through
 * what the others counted in the last ~3 s before it hears of it (README, "Scaling out").
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
  const count = await countersOf(db).charge(bucket, windowStart, cost);
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
    countRateLimited(bucket);
    throw new RateLimitedError(limit, retryAfter, bucket);
  }
}

/** Adds this process's counts to the shared ones now and reads the totals back (tests; a stop does it too). */
export function flushRateLimits(db: Database): Promise<void> {
  return countersOf(db).flush();
}
