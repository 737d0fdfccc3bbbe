import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";

type Executor = Pick<Database, "update">;

/** The `set` value that ends every session of a user: tokens carry the old version, which no longer matches. */
export const nextSessionVersion = () => sql`${users.sessionVersion} + 1`;

/**
 * Ends every session of a user, on every device. With `ifVersion` (the version of the token signing out), only
 * while that token is still current: a token already ended cannot end the sessions that came after it.
 * Returns whether sessions were ended.
 */
export async function endUserSessions(
  db: Executor,
  { userId, ifVersion }: { userId: string; ifVersion?: number },
): Promise<boolean> {
  const ended = await db
    .update(users)
    .set({ sessionVersion: nextSessionVersion() })
    .where(
      and(eq(users.id, userId), ifVersion === undefined ? undefined : eq(users.sessionVersion, ifVersion)),
    )
    .returning({ id: users.id });
  return ended.length > 0;
}
