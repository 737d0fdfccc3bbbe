import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";

/** Raised when another live process holds the embedded database; opening it twice would corrupt it. */
export class DatabaseLockedError extends AppError {
  constructor(readonly pid: number) {
    super(
      "unavailable:database",
      `The embedded database is in use by another process (pid ${pid}), most likely the running app. ` +
        "Stop it and try again, or set DATABASE_URL to use PostgreSQL, which both can share.",
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock file beside the PGlite folder for this process, or throws if a live process has it. */
export function acquirePgliteLock(dir: string): () => void {
  const file = path.join(path.dirname(dir), `${path.basename(dir)}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      const release = () => rmSync(file, { force: true });
      process.once("exit", release);
      return () => {
        process.removeListener("exit", release);
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(file, "utf8").trim());
      if (holder === process.pid) return () => {};
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new DatabaseLockedError(holder);
      // A crashed process left the lock behind.
      rmSync(file, { force: true });
    }
  }
  throw new Error("Could not take the embedded database lock.");
}
