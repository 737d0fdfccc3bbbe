import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";

/** Asks the database for one row, for the liveness check: which kind answered, and how fast; throws if none did. */
export async function pingDatabase(): Promise<{ kind: string; latencyMs: number }> {
  const started = performance.now();
  const { db, kind } = getDatabase();
  await db.execute(sql`select 1`);
  return { kind, latencyMs: Math.round(performance.now() - started) };
}
