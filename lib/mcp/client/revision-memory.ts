import type { PriorDiscovery } from "@modelcontextprotocol/client";

/**
 * Which revision each integration's server spoke when last connected, so the next connection skips the probe: a
 * 2026-07-28 server's `server/discover` answer is handed to the v2 client as is (no round trip), a 2025 server
 * is reached the 2025 way at once. An HTTP server's 2025 verdict is kept for an hour only, so a server that moved
 * on is found again; a stdio server's for as long as this process runs, as its probe costs a process start. A
 * 2026-07-28 verdict is forgotten as soon as a connection on it fails.
 */
const LEGACY_VERDICT_MS = 60 * 60 * 1000;

type Verdict = { prior: PriorDiscovery; at: number };

const verdicts = new Map<string, Verdict>();

/**
 * One server of one integration: over HTTP, as one owner's credentials reach it (a changed address is another
 * server); over stdio, the command it runs.
 */
export type RevisionKey =
  | { integrationId: string; url: string; owner?: string }
  | { integrationId: string; command: string; args: string[] };

const keyOf = (server: RevisionKey) =>
  "command" in server
    ? JSON.stringify(["stdio", server.integrationId, server.command, server.args])
    : JSON.stringify([server.integrationId, server.url, server.owner ?? ""]);

export function rememberedRevision(server: RevisionKey, now = Date.now()): PriorDiscovery | undefined {
  const verdict = verdicts.get(keyOf(server));
  if (!verdict) return undefined;
  const expires = verdict.prior.kind === "legacy" && !("command" in server);
  if (expires && now - verdict.at > LEGACY_VERDICT_MS) {
    verdicts.delete(keyOf(server));
    return undefined;
  }
  return verdict.prior;
}

export function rememberRevision(server: RevisionKey, prior: PriorDiscovery, now = Date.now()) {
  verdicts.set(keyOf(server), { prior, at: now });
}

export function forgetRevision(server: RevisionKey) {
  verdicts.delete(keyOf(server));
}
