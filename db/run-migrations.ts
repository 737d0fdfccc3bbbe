import { openConfiguredDatabase } from "./client";
import { migrateDatabase } from "./migrate";

/** Applies pending migrations to the configured database, then closes it so the app can open it. */
export async function runMigrations(): Promise<void> {
  const handle = openConfiguredDatabase();
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
}
