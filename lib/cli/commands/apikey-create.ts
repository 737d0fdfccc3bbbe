import { createApiKey } from "@/lib/api-keys/api-keys";
import { type CliCommand, requireOption } from "../command";
import { operatorContext } from "../operator-context";

export const apikeyCreate: CliCommand = {
  name: "apikey:create",
  usage: "apikey:create --org <slug> --name <name> [--meta-tools-only]",
  description: "Create an API key for an organization; the key is printed once.",
  options: { org: { type: "string" }, name: { type: "string" }, "meta-tools-only": { type: "boolean" } },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    const { key, apiKey } = await createApiKey(db, ctx, {
      name: requireOption(values, "name"),
      metaToolsOnly: values["meta-tools-only"] === true,
    });
    io.print(`${key}\n(Store it now: it is not shown again.)`, {
      id: apiKey.id,
      name: apiKey.name,
      prefix: apiKey.prefix,
      metaToolsOnly: apiKey.metaToolsOnly,
      key,
    });
  },
};
