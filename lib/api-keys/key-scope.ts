import { z } from "zod";
import type { ApiKeyScope } from "@/db/schema";
import type { ToolScope } from "@/lib/tools/scope";

export type { ApiKeyScope };

const idList = (what: string, max: number) =>
  z
    .array(
      z
        .string({ error: `Each ${what} is given by its id.` })
        .max(100, { error: `Each ${what} id is at most 100 characters.` }),
      { error: `List the ${what}s by id.` },
    )
    .max(max, { error: `Choose at most ${max} ${what}s.` })
    .nullable()
    .default(null);

/** A scope as the keys page, the CLI and tests give it: null (or every field open) means unrestricted. */
export const apiKeyScopeInputSchema = z
  .object(
    {
      integrationIds: idList("integration", 200),
      capabilityIds: idList("capability", 500),
      builtins: z.boolean({ error: "builtins is true or false." }).default(true),
    },
    { error: "The scope is an object with integrationIds, capabilityIds and builtins." },
  )
  .strict()
  .nullable()
  .default(null);

/** A read-only knowledge key: the built-in knowledge tools and nothing else. */
export const KNOWLEDGE_ONLY: ApiKeyScope = { integrationIds: [], capabilityIds: [], builtins: true };

const unique = (ids: string[] | null) => (ids ? [...new Set(ids)] : null);

/** The scope to store: repeats dropped, and null when it restricts nothing, so such a key stays a plain key. */
export function normalizeScope(scope: ApiKeyScope | null): ApiKeyScope | null {
  if (!scope) return null;
  const integrationIds = unique(scope.integrationIds);
  const capabilityIds = unique(scope.capabilityIds);
  if (integrationIds === null && capabilityIds === null && scope.builtins) return null;
  return { integrationIds, capabilityIds, builtins: scope.builtins };
}

// Read on every request: a stored value of the wrong shape allows nothing rather than everything.
const storedScopeSchema = z.object({
  integrationIds: z.array(z.string()).nullable(),
  capabilityIds: z.array(z.string()).nullable(),
  builtins: z.boolean(),
});
const NOTHING: ToolScope = { builtins: [], integrationIds: [], capabilityIds: [] };

/** The catalog scope of a key's stored scope: what REST and the gateway pass to every listing and call. */
export function toolScopeOf(stored: unknown): ToolScope {
  if (stored === null || stored === undefined) return {};
  const parsed = storedScopeSchema.safeParse(stored);
  if (!parsed.success) return NOTHING;
  const { integrationIds, capabilityIds, builtins } = parsed.data;
  return {
    ...(builtins ? {} : { builtins: [] }),
    ...(integrationIds ? { integrationIds } : {}),
    ...(capabilityIds ? { capabilityIds } : {}),
  };
}
