import { type DatabaseHandle, openPglite } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/** A migrated in-memory embedded database, installed as the app's own so routes and `getDb()` use it. */
export async function openBenchDatabase(): Promise<DatabaseHandle> {
  const handle = openPglite();
  await migrateDatabase(handle);
  (globalThis as { switchboardDb?: DatabaseHandle }).switchboardDb = handle;
  return handle;
}
