import { listNodesToReindex } from "@/lib/knowledge/nodes";
import { getOrganizationBySlug, listOrganizationIds } from "@/lib/orgs/organizations";
import { elasticsearch } from "@/lib/search/search-backends";
import { type CliCommand, CliUsageError } from "../command";

export const knowledgeReindex: CliCommand = {
  name: "knowledge:reindex",
  usage: "knowledge:reindex [--org <slug>]",
  description: "Rebuild the Elasticsearch index of knowledge from the database (one organization, or all).",
  options: { org: { type: "string" } },
  async run(db, { values }, io) {
    const backend = elasticsearch();
    if (!backend)
      throw new CliUsageError("ELASTICSEARCH_URL is not set: PostgreSQL search needs no reindexing.");
    const orgIds =
      typeof values.org === "string"
        ? [(await getOrganizationBySlug(db, values.org)).id]
        : await listOrganizationIds(db);
    const nodes = await listNodesToReindex(db, typeof values.org === "string" ? orgIds[0] : undefined);
    const count = await backend.reindex(nodes, orgIds);
    io.print(`Indexed ${count} knowledge nodes of ${orgIds.length} organizations.`, {
      indexed: count,
      organizations: orgIds.length,
    });
  },
};
