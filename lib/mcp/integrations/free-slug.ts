import type { Database } from "@/db/client";
import { slugify } from "@/lib/orgs/schemas";
import { listIntegrationSlugsStartingWith } from "../repository";

/** Slugs name tools (`<slug>_<tool>`), so they stay short and unique within the organization. */
export async function freeIntegrationSlug(db: Database, orgId: string, name: string): Promise<string> {
  const base = slugify(name).replaceAll("-", "_").slice(0, 24).replace(/_+$/, "") || "mcp";
  const taken = new Set(await listIntegrationSlugsStartingWith(db, orgId, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}
