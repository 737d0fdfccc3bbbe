import { createHash } from "node:crypto";

/** The longest tool name every LLM provider accepts. */
export const MAX_TOOL_NAME = 64;

/** A name every LLM provider accepts for a tool (what the catalog lists every tool under). */
export const TOOL_NAME_PATTERN = new RegExp(`^[a-zA-Z0-9_-]{1,${MAX_TOOL_NAME}}$`);

/**
 * The name an integration's tool is listed under: `<integration slug>_<tool>`, reduced to the characters every
 * LLM provider accepts and to 64 characters (long names keep a short hash so they stay unique and stable).
 */
export function integrationToolName(slug: string, tool: string): string {
  const name = `${slug}_${tool}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash("sha256").update(`${slug}\u0000${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/**
 * Whether an integration with this slug could list a tool named `toolName` (its slug and an underscore start every
 * name it lists). The repository's `listIntegrationsForToolName` asks the database the same question.
 */
export function couldBeIntegrationToolName(slug: string, toolName: string): boolean {
  return toolName.startsWith(`${slug}_`);
}

/**
 * Lists items (an integration's tools or prompts) under the names `listed` gives them, in order: the first item to
 * claim a name keeps it; a later one whose name is already given, or `taken` beforehand, is left out and handed to
 * `onTaken`. No two items are ever listed under one name.
 */
export function claimUniqueNames<T, L extends { name: string }>(
  items: Iterable<T>,
  listed: (item: T) => L,
  { taken, onTaken }: { taken?: (name: string) => boolean; onTaken?: (item: T, listed: L) => void } = {},
): { item: T; listed: L }[] {
  const given = new Set<string>();
  const claimed: { item: T; listed: L }[] = [];
  for (const item of items) {
    const entry = listed(item);
    if (given.has(entry.name) || taken?.(entry.name)) {
      onTaken?.(item, entry);
      continue;
    }
    given.add(entry.name);
    claimed.push({ item, listed: entry });
  }
  return claimed;
}
