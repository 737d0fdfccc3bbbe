import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json" with { type: "json" };

const newestMigration = journal.entries.reduce((newest, entry) => Math.max(newest, entry.when), 0);
const appliedRow = z.object({ created_at: z.coerce.number().nullable() });
// SQLSTATE: no such table, no such schema (nothing was ever migrated).
const NOTHING_MIGRATED = new Set(["42P01", "3F000"]);

/**
 * Whether the database holds every migration this build ships: an instance started before its release's
 * migration job has run is not ready. Drizzle records each applied migration with its journal time.
 */
export async function schemaIsCurrent(): Promise<boolean> {
  const { db } = getDatabase();
  try {
    const result = await db.execute(
      sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`,
    );
    const [row] = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
    const applied = appliedRow.parse(row).created_at;
    return applied !== null && applied >= newestMigration;
  } catch (error) {
    if (NOTHING_MIGRATED.has(sqlState(error) ?? "")) return false;
    throw error;
  }
}

function sqlState(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
