import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite } from "@/db/client";
import { acquirePgliteLock, DatabaseLockedError } from "@/db/pglite-lock";

describe("embedded database lock", () => {
  it("refuses a second process while the first holds the folder, and frees it on close", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "sb-lock-")), "pglite");
    // A child process takes the lock and waits, like the running app would.
    const child = spawn(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(`${dir}.lock`)}, String(process.pid)); setTimeout(() => {}, 60000)`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      expect(() => openPglite(dir)).toThrow(DatabaseLockedError);
      expect(() => openPglite(dir)).toThrow(/in use by another process.*DATABASE_URL/s);
    } finally {
      child.kill();
    }
    await new Promise((resolve) => child.once("exit", resolve));
    // The holder died without cleaning up: the stale lock is taken over.
    const handle = openPglite(dir);
    await handle.close();
    const release = acquirePgliteLock(dir);
    release();
  });
});
