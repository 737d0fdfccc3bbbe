import type { PriorDiscovery } from "@modelcontextprotocol/client";

/**
 * Which revision each integration's server spoke when last connected, so the next connection skips the probe: a
 * 2026-07-28 server's `server/discover` answer is handed to the v2 client as is (no round trip), a 2025 server
 * is reached the 2025 way at once. A 2025 verdict is kept for an hour only, so a server that moved on is found
 * again; a 2026-07-28 verdict is forgotten as soon as a connection on it fails.
 */
const LEGACY_VERDICT_MS = 60 * 60 * 1000;

type Verdict = { prior: PriorDiscovery; at: number };

const verdicts = new Map<string, Verdict>();

/** One server of one integration, as one owner's credentials reach it: a changed address is another server. */
export interface RevisionKey {
  integrationId: string;
  url: string;
  owner?: string;
}

const keyOf = ({ integrationId, url, owner = "" }: RevisionKey) =>
  JSON.stringify([integrationId, url, owner]);

export function rememberedRevision(server: RevisionKey, now = Date.now()): PriorDiscovery | undefined {
  const verdict = verdicts.get(keyOf(server));
  if (!verdict) return undefined;
  if (verdict.prior.kind === "legacy" && now - verdict.at > LEGACY_VERDICT_MS) {
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
