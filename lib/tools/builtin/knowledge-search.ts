import { z } from "zod";
import { searchBackend } from "@/lib/search/search-backends";
import { parseToolArgs } from "../tool-args";
import { type BuiltinTool, jsonResult } from "../types";

const argsSchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1, { error: "query is required" })
      .max(500, { error: "query is at most 500 characters" }),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict();

/** Full-text search over the organization's knowledge nodes, ranked, with highlighted snippets. */
export const knowledgeSearch: BuiltinTool = {
  name: "knowledge_search",
  description:
    "Search the organization's knowledge nodes by keywords. Returns the best matching nodes, ranked, with snippets where the words appear highlighted in <mark> tags.",
  source: "builtin",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: 500, description: "Words to search for." },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: 50,
        default: 10,
        description: "How many results at most.",
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
  async run(db, ctx, raw) {
    const args = parseToolArgs(argsSchema, raw);
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
};
