import { createHash } from "node:crypto";

const MAX = 64;

/**
 * The name an integration's tool is listed under: `<integration slug>_<tool>`, reduced to the characters every
 * LLM provider accepts and to 64 characters (long names keep a short hash so they stay unique and stable).
 */
export function integrationToolName(slug: string, tool: string): string {
  const name = `${slug}_${tool}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (name.length <= MAX) return name;
  const hash = createHash("sha256").update(`${slug}\u0000${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX - hash.length - 1)}_${hash}`;
}
