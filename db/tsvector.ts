import { customType } from "drizzle-orm/pg-core";

/** PostgreSQL's tsvector, for full-text search columns. */
export const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});
