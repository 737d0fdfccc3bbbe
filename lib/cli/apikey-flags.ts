import type { Database } from "@/db/client";
import type { ApiKeyScope } from "@/db/schema";
import type { ScopeNames } from "@/lib/api-keys/key-descriptions";
import { KNOWLEDGE_ONLY } from "@/lib/api-keys/key-scope";
import { listCapabilities } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";
import { CliUsageError } from "./command";

type Values = Record<string, unknown>;

/** `--expires-in-days N` or `--expires-at ISO` as createApiKey's input; neither: the key never expires. */
export function expiryFromFlags(values: Values): { expiresInDays?: number; expiresAt?: string } {
  const days = values["expires-in-days"];
  const at = values["expires-at"];
  if (typeof days === "string" && typeof at === "string")
    throw new CliUsageError("Give --expires-in-days or --expires-at, not both.");
  if (typeof days === "string") {
    if (!/^\d+$/.test(days.trim()))
      throw new CliUsageError(`--expires-in-days takes a whole number of days, like 30; got "${days}".`);
    return { expiresInDays: Number(days) };
  }
  return typeof at === "string" ? { expiresAt: at.trim() } : {};
}

/** A repeatable flag's values, each of which may be a comma-separated list; given empty, it is refused. */
function listFlag(values: Values, flag: string, what: string): string[] {
  const value = values[flag];
  if (value === undefined) return [];
  const items = (Array.isArray(value) ? value : [value])
    .flatMap((item) => String(item).split(","))
    .map((item) => item.trim())
    .filter(Boolean);
  // An empty value must not quietly become "no limit".
  if (items.length === 0) throw new CliUsageError(`--${flag} takes ${what}.`);
  return items;
}

function refuseTogether(values: Values, flag: string, others: string[]) {
  const clash = others.find((other) => values[other] !== undefined && values[other] !== false);
  if (values[flag] !== undefined && values[flag] !== false && clash)
    throw new CliUsageError(`--${flag} cannot be combined with --${clash}.`);
}

/**
 * The key's scope from its flags, with integrations named by id or slug and capabilities by id or tool name
 * (a name that matches nothing is passed on as given, for createApiKey to refuse by name); null without flags.
 */
export async function scopeFromFlags(
  db: Database,
  orgId: string,
  values: Values,
): Promise<{ scope: ApiKeyScope | null; names: ScopeNames }> {
  refuseTogether(values, "knowledge-only", [
    "integration",
    "no-integrations",
    "capability",
    "no-capabilities",
    "no-builtins",
  ]);
  refuseTogether(values, "integration", ["no-integrations"]);
  refuseTogether(values, "capability", ["no-capabilities"]);
  const [integrations, capabilities] = await Promise.all([
    listIntegrationsForOrg(db, orgId),
    listCapabilities(db, orgId),
  ]);
  const names: ScopeNames = {
    integrations: new Map(integrations.map((row) => [row.id, row.name])),
    capabilities: new Map(capabilities.map((row) => [row.id, capabilityToolName(row.namespace, row.action)])),
  };
  if (values["knowledge-only"] === true) return { scope: KNOWLEDGE_ONLY, names };
  const integrationRefs = listFlag(values, "integration", "an integration's id or slug");
  const capabilityRefs = listFlag(values, "capability", "a capability's id or tool name");
  const noBuiltins = values["no-builtins"] === true;
  const noIntegrations = values["no-integrations"] === true;
  const noCapabilities = values["no-capabilities"] === true;
  if (!integrationRefs.length && !capabilityRefs.length && !noBuiltins && !noIntegrations && !noCapabilities)
    return { scope: null, names };
  const integrationId = (ref: string) =>
    integrations.find((row) => row.id === ref || row.slug === ref)?.id ?? ref;
  const capabilityId = (ref: string) =>
    capabilities.find((row) => row.id === ref || capabilityToolName(row.namespace, row.action) === ref)?.id ??
    ref;
  return {
    scope: {
      integrationIds: noIntegrations
        ? []
        : integrationRefs.length
          ? integrationRefs.map(integrationId)
          : null,
      capabilityIds: noCapabilities ? [] : capabilityRefs.length ? capabilityRefs.map(capabilityId) : null,
      builtins: !noBuiltins,
    },
    names,
  };
}
