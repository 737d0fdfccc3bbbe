import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { type Database, type DatabaseHandle, openPostgres, pgliteHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/**
 * A fresh, migrated database for one test file: a database of its own on the PostgreSQL server when
 * DATABASE_URL is set, otherwise an in-memory PGlite loaded from the migrated template.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { db: Database }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    return pgliteHandle(new PGlite({ loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) }));
  }
  const name = `switchboard_test_${randomUUID().replaceAll("-", "")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const handle = openPostgres(target.toString(), { max: 5 });
  await migrateDatabase(handle);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      // FORCE may not end an autovacuum worker visiting the database (it belongs to no role of ours, 42501); a
      // plain drop asks it to stop and waits for it.
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch((error: { code?: string }) => {
        if (error.code !== "42501") throw error;
        return admin.unsafe(`drop database if exists ${name}`);
      });
      await admin.end();
    },
  };
}
