import type { Client } from "@elastic/elasticsearch";
import type { KnowledgeNode } from "@/db/schema";
import type { SearchBackend, SearchHit } from "./search-backend";

interface NodeDocument {
  org_id: string;
  name: string;
  content: string;
}

const mappings = {
  properties: {
    org_id: { type: "keyword" },
    name: { type: "text", fields: { keyword: { type: "keyword" } } },
    content: { type: "text" },
  },
} as const;

/** Knowledge search on Elasticsearch: one index for all organizations, every query filtered by organization. */
export class ElasticsearchSearch implements SearchBackend {
  readonly name = "elasticsearch" as const;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    private readonly index: string,
  ) {}

  /** Creates the index with its mappings on first use; an index that already exists is kept. */
  ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      const exists = await this.client.indices.exists({ index: this.index });
      if (!exists) {
        await this.client.indices.create({ index: this.index, mappings }, { ignore: [400] });
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async search(orgId: string, query: string, limit: number): Promise<SearchHit[]> {
    await this.ensureIndex();
    const response = await this.client.search<NodeDocument>({
      index: this.index,
      size: limit,
      query: {
        bool: {
          filter: [{ term: { org_id: orgId } }],
          must: [{ multi_match: { query, fields: ["name^2", "content"], operator: "or" } }],
        },
      },
      highlight: {
        pre_tags: ["<mark>"],
        post_tags: ["</mark>"],
        fields: { content: { fragment_size: 160, number_of_fragments: 2 } },
      },
    });
    return response.hits.hits.map((hit) => ({
      name: hit._source?.name ?? "",
      score: hit._score ?? 0,
      snippet: hit.highlight?.content?.join(" … ") ?? (hit._source?.content ?? "").slice(0, 160),
    }));
  }

  async indexNode(node: Pick<KnowledgeNode, "id" | "organizationId" | "name" | "content">): Promise<void> {
    await this.ensureIndex();
    await this.client.index<NodeDocument>({
      index: this.index,
      id: node.id,
      document: { org_id: node.organizationId, name: node.name, content: node.content },
    });
  }

  async removeNode(id: string): Promise<void> {
    await this.ensureIndex();
    await this.client.delete({ index: this.index, id }, { ignore: [404] });
  }

  /** Makes recent writes searchable now (Elasticsearch does so within a second by itself). */
  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.index });
  }

  /** Replaces the index's documents of the given nodes' organizations with the nodes, in bulk. */
  async reindex(
    nodes: Pick<KnowledgeNode, "id" | "organizationId" | "name" | "content">[],
    orgIds: string[],
  ): Promise<number> {
    await this.ensureIndex();
    if (orgIds.length > 0) {
      await this.client.deleteByQuery({
        index: this.index,
        query: { terms: { org_id: orgIds } },
        refresh: true,
      });
    }
    if (nodes.length === 0) return 0;
    const operations = nodes.flatMap((node) => [
      { index: { _index: this.index, _id: node.id } },
      { org_id: node.organizationId, name: node.name, content: node.content },
    ]);
    const result = await this.client.bulk({ operations, refresh: true });
    if (result.errors) throw new Error("Some knowledge nodes could not be indexed.");
    return nodes.length;
  }
}
