import { createOrganization } from "@/lib/orgs/organizations";
import { type CliCommand, CliUsageError } from "../command";

export const orgCreate: CliCommand = {
  name: "org:create",
  usage: "org:create <slug> [--name <display name>]",
  description: "Create an organization (without members; add them with user:create).",
  options: { name: { type: "string" } },
  async run(db, { values, positionals }, io) {
    const slug = positionals[0];
    if (!slug) throw new CliUsageError("Give the organization's slug, e.g. org:create acme.");
    const name = typeof values.name === "string" ? values.name : slug;
    const org = await createOrganization(db, { name, slug });
    io.print(`Created organization ${org.slug} (${org.id}).`, { id: org.id, slug: org.slug, name: org.name });
  },
};
