import { runMigrations } from "@/db/run-migrations";
import { EnvError, getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

try {
  getEnv();
  await runMigrations();
  console.log("Database is up to date.");
} catch (error) {
  console.error(error instanceof EnvError || error instanceof AppError ? error.message : error);
  process.exit(1);
}
