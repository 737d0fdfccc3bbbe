import path from "node:path";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { DatabaseHandle } from "./client";

export const migrationsFolder = path.resolve(import.meta.dirname, "migrations");

/** Applies the committed drizzle-kit migrations; the same files run on PGlite and PostgreSQL. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder });
  }
}
