import { builtinTools } from "./builtin";
import { integrationToolName } from "./tool-names";
import type { ToolDescriptor } from "./types";

/** A tool that wants a name in a listing; an editor's draft is the capability its test run calls. */
export interface NameClaim {
  descriptor: ToolDescriptor;
  draft?: boolean;
}

/** Who keeps a name two tools want, everywhere tools are listed or called: lower first. */
function rankOf(claim: NameClaim): number {
  if (claim.draft) return 1;
  return claim.descriptor.source === "builtin" ? 0 : claim.descriptor.source === "integration" ? 2 : 3;
}

/**
 * The one precedence of tool names, for every surface (the catalog that lists and calls tools, and a conversation's
 * listing over its own discovery): built-ins, an editor's draft, integrations' tools, capabilities; within a rank,
 * the order given. The first claim of a name keeps it and later ones are handed to `onTaken`; a hidden name is
 * not listed at all. The result is in that order.
 */
export function claimToolNames<T extends NameClaim>(
  claims: Iterable<T>,
  { hidden, onTaken }: { hidden?: ReadonlySet<string>; onTaken?: (claim: T, holder: T) => void } = {},
): Map<string, T> {
  const ranked = [...claims];
  // Already in order where the caller lists by rank (the catalog does): no sort then.
  if (ranked.some((claim, index) => index > 0 && rankOf(claim) < rankOf(ranked[index - 1] as T)))
    ranked.sort((a, b) => rankOf(a) - rankOf(b));
  const listed = new Map<string, T>();
  for (const claim of ranked) {
    const { name } = claim.descriptor;
    if (hidden?.has(name)) continue;
    const holder = listed.get(name);
    if (holder) onTaken?.(claim, holder);
    else listed.set(name, claim);
  }
  return listed;
}

/** What holds a tool name already: a built-in, an integration's tool (any integration, enabled or not), a capability. */
export type NameHolder =
  | { kind: "builtin" }
  | { kind: "integration"; integrationName: string }
  | { kind: "capability" };

/**
 * Who already holds `name`, in the order of precedence, for a new or renamed capability that wants it: the
 * built-ins, then the organization's integrations and capabilities that could hold it (a capability being renamed
 * left out), named as every listing names them.
 */
export function holderOfToolName(
  name: string,
  candidates: {
    integrations: { name: string; slug: string; discovered: { tools: { name: string }[] } | null }[];
    capabilities: { id: string }[];
    exceptCapabilityId?: string;
  },
): NameHolder | undefined {
  if (builtinTools.some((tool) => tool.name === name)) return { kind: "builtin" };
  const integration = candidates.integrations.find((row) =>
    (row.discovered?.tools ?? []).some((tool) => integrationToolName(row.slug, tool.name) === name),
  );
  if (integration) return { kind: "integration", integrationName: integration.name };
  return candidates.capabilities.some((capability) => capability.id !== candidates.exceptCapabilityId)
    ? { kind: "capability" }
    : undefined;
}
