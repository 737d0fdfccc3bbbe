import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env";

/** The folder for embedded data (PGlite, generated development secrets); created on first use. */
export function dataDir(): string {
  const dir = path.resolve(getEnv().DATA_DIR);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Reads a random secret kept in the data folder, creating it the first time so restarts keep sessions. */
export function readOrCreateSecret(name: string, bytes = 32): string {
  const file = path.join(dataDir(), name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(bytes).toString("base64url");
    try {
      writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process created it first: use theirs.
      return readFileSync(file, "utf8").trim();
    }
  }
}
