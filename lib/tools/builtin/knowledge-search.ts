import { z } from "zod";
import { searchBackend } from "@/lib/search/search-backends";
import { jsonResult } from "../types";
import { defineBuiltinTool, READS_OWN_KNOWLEDGE } from "./define";

const QUERY_REQUIRED = "query is required";

export const knowledgeSearchArgs = z
  .object({
    query: z
      .string({ error: (issue) => (issue.input === undefined ? QUERY_REQUIRED : "query must be a string") })
      .min(1, { error: QUERY_REQUIRED, abort: true })
      .max(500, { error: "query is at most 500 characters" })
      // Not only blanks; checked before the trim so the listed schema (a pattern) says the same.
      .regex(/\S/, { error: QUERY_REQUIRED })
      .trim()
      .meta({ description: "Words to search for." }),
    limit: z.number().int().min(1).max(50).default(10).meta({ description: "How many results at most." }),
  })
  .strict();

/** Full-text search over the organization's knowledge nodes, ranked, with highlighted snippets. */
export const knowledgeSearch = defineBuiltinTool({
  name: "knowledge_search",
  title: "Search knowledge",
  annotations: READS_OWN_KNOWLEDGE,
  description:
    "Search the organization's knowledge nodes by keywords. Returns the best matching nodes, ranked, with snippets where the words appear highlighted in <mark> tags.",
  args: knowledgeSearchArgs,
  async run(db, ctx, args) {
    const backend = searchBackend(db);
    const hits = await backend.search(ctx.orgId, args.query, args.limit);
    return jsonResult({
      success: true,
      query: args.query,
      backend: backend.name,
      results: hits,
      total: hits.length,
    });
  },
});
