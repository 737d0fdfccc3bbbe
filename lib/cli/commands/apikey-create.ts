import { createApiKey } from "@/lib/api-keys/api-keys";
import { expiryLabel, scopeSummary } from "@/lib/api-keys/key-descriptions";
import { expiryFromFlags, scopeFromFlags } from "../apikey-flags";
import { type CliCommand, requireOption } from "../command";
import { operatorContext } from "../operator-context";

export const apikeyCreate: CliCommand = {
  name: "apikey:create",
  usage:
    "apikey:create --org <slug> --name <name> [--meta-tools-only] [--expires-in-days N | --expires-at <ISO date or time>] [--knowledge-only | [--integration <id or slug>]... [--no-integrations] [--capability <id or tool name>]... [--no-capabilities] [--no-builtins]]",
  description:
    "Create an API key for an organization, optionally expiring and limited to some integrations, capabilities and the built-in knowledge tools; the key is printed once.",
  options: {
    org: { type: "string" },
    name: { type: "string" },
    "meta-tools-only": { type: "boolean" },
    "expires-in-days": { type: "string" },
    "expires-at": { type: "string" },
    integration: { type: "string", multiple: true },
    "no-integrations": { type: "boolean" },
    capability: { type: "string", multiple: true },
    "no-capabilities": { type: "boolean" },
    "no-builtins": { type: "boolean" },
    "knowledge-only": { type: "boolean" },
  },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    const name = requireOption(values, "name");
    const expiry = expiryFromFlags(values);
    const { scope, names } = await scopeFromFlags(db, ctx.orgId, values);
    const { key, apiKey } = await createApiKey(db, ctx, {
      name,
      metaToolsOnly: values["meta-tools-only"] === true,
      ...expiry,
      scope,
    });
    const expires = apiKey.expiresAt
      ? `${expiryLabel(apiKey.expiresAt, new Date()).text} (${apiKey.expiresAt})`
      : "Never expires";
    io.print(
      [
        key,
        "(Store it now: it is not shown again.)",
        `${expires}.`,
        `May use: ${scopeSummary(apiKey.scope, names)}.`,
      ].join("\n"),
      {
        id: apiKey.id,
        name: apiKey.name,
        prefix: apiKey.prefix,
        metaToolsOnly: apiKey.metaToolsOnly,
        expiresAt: apiKey.expiresAt,
        scope: apiKey.scope,
        key,
      },
    );
  },
};
