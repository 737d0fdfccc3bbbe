import { openConfiguredDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { type EnvError, getEnv } from "@/lib/env";
import { closeMcpPoolIfOpen } from "@/lib/mcp/client/shared-client";
import { runCli } from "./run";

// Operators read results on stdout; routine logs would only get in the way (and break --json).
process.env.LOG_LEVEL ||= "warn";

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
// Bundled stdio servers started by integration commands must not outlive the CLI.
await closeMcpPoolIfOpen();
process.exit(code);
