import { readFileSync } from "node:fs";

/** The lowest Node.js version the app supports, from package.json's `engines.node` (">=MAJOR.MINOR"). */
export function minimumNode(): [number, number] {
  const engines = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    engines?: { node?: string };
  };
  const match = /^>=\s*(\d+)\.(\d+)/.exec(engines.engines?.node ?? "");
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/** Whether `version` ("20.9.0" or "v20.9.0") is at least [major, minor]. */
export function isSupportedNode(version: string, [major, minor]: [number, number]): boolean {
  const [actualMajor = 0, actualMinor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return actualMajor > major || (actualMajor === major && actualMinor >= minor);
}

// Imported first by the start script: an unsupported Node stops with a clear message, not a confusing crash.
const [major, minor] = minimumNode();
if (!isSupportedNode(process.versions.node, [major, minor])) {
  console.error(
    `Switchboard needs Node.js ${major}.${minor} or newer (20, 22 and 24 are supported); this is ${process.versions.node}. Install a supported version and run npm start again.`,
  );
  process.exit(1);
}
