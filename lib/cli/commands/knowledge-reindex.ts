import { eq } from "drizzle-orm";
import { knowledgeNodes, organizations } from "@/db/schema";
import { getOrganizationBySlug } from "@/lib/orgs/organizations";
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
        : (await db.select({ id: organizations.id }).from(organizations)).map((org) => org.id);
    const nodes =
      typeof values.org === "string" && orgIds[0]
        ? await db.select().from(knowledgeNodes).where(eq(knowledgeNodes.organizationId, orgIds[0]))
        : await db.select().from(knowledgeNodes);
    const count = await backend.reindex(nodes, orgIds);
    io.print(`Indexed ${count} knowledge nodes of ${orgIds.length} organizations.`, {
      indexed: count,
      organizations: orgIds.length,
    });
  },
};
