import path from "node:path";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { DatabaseHandle } from "./client";

export const migrationsFolder = path.resolve(import.meta.dirname, "migrations");

/**
 * Applies the committed drizzle-kit migrations; the same files run on PGlite and PostgreSQL. A test of one
 * migration passes a folder holding only those before it, to have rows as they were.
 */
export async function migrateDatabase(handle: DatabaseHandle, folder = migrationsFolder): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
  } else {
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder: folder });
  }
}
