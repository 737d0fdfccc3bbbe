import { Client } from "@elastic/elasticsearch";
import type { Database } from "@/db/client";
import type { KnowledgeNode } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { processWide } from "@/lib/process-wide.mjs";
import { ElasticsearchSearch } from "./elasticsearch-search";
import { postgresSearch } from "./postgres-search";
import type { SearchBackend } from "./search-backend";

const held = () => processWide("elasticsearch", (): { search?: ElasticsearchSearch } => ({}));

/** Elasticsearch when ELASTICSEARCH_URL is set (one client per process), otherwise nothing: PostgreSQL needs no index. */
export function elasticsearch(): ElasticsearchSearch | undefined {
  const env = getEnv();
  if (!env.ELASTICSEARCH_URL) return undefined;
  const holder = held();
  holder.search ??= new ElasticsearchSearch(
    new Client({
      node: env.ELASTICSEARCH_URL,
      ...(env.ELASTICSEARCH_API_KEY ? { auth: { apiKey: env.ELASTICSEARCH_API_KEY } } : {}),
      requestTimeout: 10_000,
    }),
    env.ELASTICSEARCH_INDEX,
  );
  return holder.search;
}

/** The configured search engine: Elasticsearch when set up, else PostgreSQL full-text search. */
export function searchBackend(db: Database): SearchBackend {
  return elasticsearch() ?? postgresSearch(db);
}

type IndexedNode = Pick<KnowledgeNode, "id" | "organizationId" | "name" | "content">;

/**
 * Keeps the search index in step with a write. The database is the source of truth: if the index cannot be
 * reached the write still stands, the failure is logged, and a reindex brings the index back in line.
 */
export async function syncSearchIndex(change: { upsert: IndexedNode } | { remove: string }): Promise<void> {
  const backend = elasticsearch();
  if (!backend) return;
  try {
    if ("upsert" in change) await backend.indexNode(change.upsert);
    else await backend.removeNode(change.remove);
  } catch (error) {
    logger.warn("search index update failed; run knowledge:reindex", { err: error });
  }
}
