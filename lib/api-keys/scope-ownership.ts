import type { Database } from "@/db/client";
import type { ApiKeyScope } from "@/db/schema";
import { listOwnCapabilityIds } from "@/lib/capabilities/store";
import { ValidationError } from "@/lib/errors";
import { listOwnIntegrationIds } from "@/lib/mcp/repository";
import { isUuid } from "@/lib/validation";

/** The ids in the list that are not rows of the organization (a non-UUID names no row). */
async function foreignIds(
  ids: string[] | null,
  findOwn: (uuids: string[]) => Promise<{ id: string }[]>,
): Promise<string[]> {
  if (!ids?.length) return [];
  const uuids = ids.filter(isUuid);
  const own = new Set(uuids.length ? (await findOwn(uuids)).map((row) => row.id) : []);
  return ids.filter((id) => !own.has(id));
}

/** Throws a ValidationError naming the first id of the scope that is not the organization's own. */
export async function requireOwnScope(db: Database, orgId: string, scope: ApiKeyScope | null): Promise<void> {
  if (!scope) return;
  const [integrations, ownCapabilities] = await Promise.all([
    foreignIds(scope.integrationIds, (ids) => listOwnIntegrationIds(db, orgId, ids)),
    foreignIds(scope.capabilityIds, (ids) => listOwnCapabilityIds(db, orgId, ids)),
  ]);
  const fields: Record<string, string[]> = {};
  if (integrations.length)
    fields["scope.integrationIds"] = integrations.map(
      (id) => `"${id}" is not an integration of this organization.`,
    );
  if (ownCapabilities.length)
    fields["scope.capabilityIds"] = ownCapabilities.map(
      (id) => `"${id}" is not a capability of this organization.`,
    );
  const [first] = Object.values(fields).flat();
  if (first) throw new ValidationError(first, fields);
}
