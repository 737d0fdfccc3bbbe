import type { ApiKeyScope } from "@/db/schema";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** How a key's expiry reads in lists: "Expires in 12 days", "Expired", "Never expires". */
export function expiryLabel(expiresAt: string | Date | null, now: Date): { text: string; expired: boolean } {
  if (expiresAt === null) return { text: "Never expires", expired: false };
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return { text: "Expired", expired: true };
  if (left < HOUR_MS) return { text: "Expires in less than an hour", expired: false };
  if (left < DAY_MS)
    return { text: `Expires in ${plural(Math.round(left / HOUR_MS), "hour")}`, expired: false };
  return { text: `Expires in ${plural(Math.round(left / DAY_MS), "day")}`, expired: false };
}

/** Names to show for the ids of a scope; an id that is not there any more was deleted since. */
export interface ScopeNames {
  integrations: ReadonlyMap<string, string>;
  capabilities: ReadonlyMap<string, string>;
}

function listed(
  ids: string[] | null,
  names: ReadonlyMap<string, string>,
  [one, many]: [string, string],
): string {
  if (ids === null) return `all ${many}`;
  if (ids.length === 0) return `no ${many}`;
  return `${ids.length === 1 ? one : many} ${ids.map((id) => names.get(id) ?? `(deleted ${one})`).join(", ")}`;
}

/** One line saying what a key may use: "All tools", "Read-only knowledge", or each part of its scope. */
export function scopeSummary(scope: ApiKeyScope | null, names: ScopeNames): string {
  if (scope === null) return "All tools";
  const { integrationIds, capabilityIds, builtins } = scope;
  if (integrationIds?.length === 0 && capabilityIds?.length === 0)
    return builtins ? "Read-only knowledge" : "No tools";
  const parts = [
    listed(integrationIds, names.integrations, ["integration", "integrations"]),
    listed(capabilityIds, names.capabilities, ["capability", "capabilities"]),
    builtins ? "built-in knowledge tools" : "no built-in tools",
  ];
  const line = parts.join(" · ");
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}`;
}
