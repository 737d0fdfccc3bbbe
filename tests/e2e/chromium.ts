import { existsSync } from "node:fs";

/** Debian's Chromium (or CHROMIUM_PATH); the tests never download a browser of their own. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate)) ?? null;
}
