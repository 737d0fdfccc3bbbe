import { and, eq, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { signInThrottles } from "@/db/schema";

/**
 * Brute-force protection for password sign-in, shared by every instance through the database.
 *
 * Each attempt is counted before the password is checked (one atomic upsert per key), so parallel guesses cannot
 * slip past the limit while the hash is being compared. After `limit` attempts within the window, the next one is
 * refused, without checking the password, and locks the key for 1, 2, 4… minutes (capped), the doubling continuing
 * while locks follow each other within a window of the last one ending. A success forgets the account's attempts
 * and gives the address back the attempt it counted.
 */
export const SIGN_IN_POLICY = {
  /** The window in which failures add up, and after which a lock level is forgotten. */
  windowMs: 15 * 60_000,
  /** Attempts allowed per account (email) in a window. */
  accountLimit: 5,
  /** Attempts allowed per client address in a window. */
  addressLimit: 20,
  /** The first lock; each further one doubles, up to maxLockMinutes. */
  firstLockMinutes: 1,
  maxLockMinutes: 15,
} as const;

export const accountKey = (email: string) => `email:${email.trim().toLowerCase()}`;
export const addressKey = (address: string) => `ip:${address.trim().toLowerCase()}`;

/** Until when a key is locked, or null when it may try. */
async function countAttempt(db: Database, key: string, limit: number, now: Date): Promise<Date | null> {
  const t = signInThrottles;
  const at = sql`${now.toISOString()}::timestamptz`;
  const windowAgo = sql`(${at} - ${SIGN_IN_POLICY.windowMs} * interval '1 millisecond')`;
  const locked = sql`(${t.lockedUntil} is not null and ${t.lockedUntil} > ${at})`;
  const stale = sql`(${t.windowStart} <= ${windowAgo})`;
  const attempts = sql`(case when ${stale} then 1 else ${t.failures} + 1 end)`;
  const over = sql`(${attempts} > ${limit})`;
  const level = sql`((case when ${t.lockedUntil} is null or ${t.lockedUntil} <= ${windowAgo} then 0 else ${t.lockCount} end) + 1)`;
  const minutes = sql`least(${SIGN_IN_POLICY.firstLockMinutes} * power(2, ${level} - 1), ${SIGN_IN_POLICY.maxLockMinutes})`;
  const pick = (whenLocked: SQL, whenOver: SQL, otherwise: SQL) =>
    sql`case when ${locked} then ${whenLocked} when ${over} then ${whenOver} else ${otherwise} end`;
  const [row] = await db
    .insert(t)
    .values({ key, failures: 1, windowStart: now, lockCount: 0, lockedUntil: null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: pick(sql`${t.failures}`, sql`0`, attempts),
        windowStart: pick(
          sql`${t.windowStart}`,
          at,
          sql`case when ${stale} then ${at} else ${t.windowStart} end`,
        ),
        lockCount: pick(sql`${t.lockCount}`, level, sql`${t.lockCount}`),
        lockedUntil: pick(
          sql`${t.lockedUntil}`,
          sql`${at} + ${minutes} * interval '1 minute'`,
          sql`${t.lockedUntil}`,
        ),
      },
    })
    .returning({ lockedUntil: t.lockedUntil });
  const until = row?.lockedUntil ? new Date(row.lockedUntil) : null;
  return until && until.getTime() > now.getTime() ? until : null;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts a sign-in attempt for the account and (when known) the client address, and says whether it may go on.
 * The address is counted first: an attempt against a locked account still counts against the address.
 */
export async function beginSignInAttempt(
  db: Database,
  { email, address }: { email: string; address?: string | null },
  now = new Date(),
): Promise<ThrottleVerdict> {
  const refuse = (until: Date): ThrottleVerdict => ({
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
  if (address) {
    const until = await countAttempt(db, addressKey(address), SIGN_IN_POLICY.addressLimit, now);
    if (until) return refuse(until);
  }
  const until = await countAttempt(db, accountKey(email), SIGN_IN_POLICY.accountLimit, now);
  // Rows nobody has tried for a day are dead weight; sweep them now and then rather than on every attempt.
  if (Math.random() < 0.01) {
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60_000);
    await db
      .delete(signInThrottles)
      .where(
        and(
          lt(signInThrottles.windowStart, dayAgo),
          or(isNull(signInThrottles.lockedUntil), lt(signInThrottles.lockedUntil, dayAgo)),
        ),
      );
  }
  return until ? refuse(until) : { allowed: true };
}

/** A successful sign-in: the account starts afresh, and the address gets back the attempt it was charged. */
export async function signInSucceeded(
  db: Database,
  { email, address }: { email: string; address?: string | null },
): Promise<void> {
  await db.delete(signInThrottles).where(eq(signInThrottles.key, accountKey(email)));
  if (address) {
    await db
      .update(signInThrottles)
      .set({ failures: sql`greatest(${signInThrottles.failures} - 1, 0)` })
      .where(eq(signInThrottles.key, addressKey(address)));
  }
}

/**
 * The client's address as the server saw it: the first entry of X-Forwarded-For (Next.js sets it from the socket
 * when no proxy did; a proxy in front must overwrite, not append to, what the client sent), else X-Real-IP.
 */
export function clientAddress(headers: Headers | null | undefined): string | null {
  const forwarded = headers?.get("x-forwarded-for")?.split(",")[0]?.trim();
  const address = forwarded || headers?.get("x-real-ip")?.trim();
  if (!address) return null;
  // An IPv4 client on a dual-stack socket shows up as ::ffff:1.2.3.4; count it once whichever way it appears.
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").slice(0, 100);
}

/** "1 minute", "4 minutes": a wait rounded up to whole minutes. */
export function formatWait(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
