import { openConfiguredDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { type EnvError, getEnv } from "@/lib/env";
import { runCli } from "./run";

try {
  getEnv();
} catch (error) {
  console.error((error as EnvError).message);
  process.exit(1);
}

const code = await runCli(
  process.argv.slice(2),
  async () => {
    const handle = openConfiguredDatabase();
    await migrateDatabase(handle);
    return handle;
  },
  { out: (line) => console.log(line), err: (line) => console.error(line) },
);
process.exit(code);
