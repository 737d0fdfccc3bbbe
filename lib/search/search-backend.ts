export interface SearchHit {
  name: string;
  score: number;
  /** Matching passages with the query's words wrapped in <mark>…</mark>. */
  snippet: string;
}

/** One contract for knowledge search, whichever engine runs it. */
export interface SearchBackend {
  readonly name: "postgres" | "elasticsearch";
  search(orgId: string, query: string, limit: number): Promise<SearchHit[]>;
}
