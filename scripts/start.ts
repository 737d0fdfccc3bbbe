import "./require-node";
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { runMigrations } from "@/db/run-migrations";
import { EnvError, getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { needsBuild } from "./build-state";

/** `npm start`: check the environment, migrate, build when the sources changed, then serve. */
async function main() {
  const env = getEnv();
  await runMigrations();
  console.log(
    `Database is up to date (${env.DATABASE_URL ? "PostgreSQL" : `embedded, in ${env.DATA_DIR}`}).`,
  );

  if (needsBuild()) {
    console.log("Building the app (first start or changed sources)…");
    const build = spawnSync("npx", ["next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  // Node runs the server directly (no npx in between), so a stop signal reaches the server itself.
  const server = spawn(process.execPath, [path.resolve("scripts/serve.mjs")], {
    stdio: "inherit",
    env: { ...process.env, PORT: String(env.PORT), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof AppError ? error.message : error);
  process.exit(1);
});
