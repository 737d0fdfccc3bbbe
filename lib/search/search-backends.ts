import type { Database } from "@/db/client";
import { postgresSearch } from "./postgres-search";
import type { SearchBackend } from "./search-backend";

/** The configured search engine: PostgreSQL full-text search. */
export function searchBackend(db: Database): SearchBackend {
  return postgresSearch(db);
}
