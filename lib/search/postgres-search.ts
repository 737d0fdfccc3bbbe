import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import type { SearchBackend, SearchHit } from "./search-backend";

/** PostgreSQL full-text search over the weighted tsvector column (names rank above content); works on PGlite too. */
export function postgresSearch(db: Database): SearchBackend {
  return {
    name: "postgres",
    async search(orgId, query, limit) {
      const result = await db.execute(sql`
        select n.name,
               ts_rank_cd(n.search_vector, q) as score,
               ts_headline('english', n.content, q, 'StartSel=<mark>, StopSel=</mark>, MaxFragments=2, MaxWords=30, MinWords=8') as snippet
        from knowledge_nodes n, websearch_to_tsquery('english', ${query}) q
        where n.organization_id = ${orgId} and n.search_vector @@ q
        order by score desc, n.name asc
        limit ${limit}`);
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
        name: string;
        score: number | string;
        snippet: string;
      }[];
      return rows.map(
        (row): SearchHit => ({ name: row.name, score: Number(row.score), snippet: row.snippet }),
      );
    },
  };
}
