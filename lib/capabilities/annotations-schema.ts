import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/** The MCP hints a capability can declare, as its form offers them. */
export const capabilityHints = [
  {
    name: "readOnlyHint",
    label: "Read-only",
    note: "It changes nothing; agents that ask before risky tools run it at once.",
  },
  { name: "destructiveHint", label: "Destructive", note: "It may delete or overwrite things." },
  {
    name: "idempotentHint",
    label: "Idempotent",
    note: "Calling it again with the same arguments changes nothing more.",
  },
  {
    name: "openWorldHint",
    label: "Open world",
    note: "It reaches systems outside the organization's tools.",
  },
] as const;

/**
 * The form's checked hints as the annotations a capability declares: each checked one true; none checked, none.
 * A name that is no hint stays in, for the capability's schema to refuse with its message.
 */
export function annotationsFromHints(names: FormDataEntryValue[]): Record<string, boolean> | null {
  if (names.length === 0) return null;
  return Object.fromEntries(names.map((name) => [String(name), true]));
}

/** A capability's declared annotations as the hints its form shows checked. */
export function hintsOf(annotations: ToolAnnotations | null): string[] {
  return capabilityHints.filter((hint) => annotations?.[hint.name] === true).map((hint) => hint.name);
}
