import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { findKnowledgeNodesByName } from "@/lib/knowledge/nodes";
import { parseToolArgs } from "../tool-args";
import { type BuiltinTool, jsonResult } from "../types";

const argsSchema = z
  .object({
    node_names: z.array(z.string().min(1).max(200)).min(1).max(100),
    include_metadata: z.boolean().default(false),
  })
  .strict();

/** Fetches the knowledge of named nodes (seed 002, requirement 3). */
export const nodeKnowledgeRetriever: BuiltinTool = {
  name: "node_knowledge_retriever",
  description:
    "Retrieve the stored knowledge of one or more nodes by their exact names. Returns, per requested node, whether it was found and its knowledge; metadata only when include_metadata is true.",
  source: "builtin",
  inputSchema: {
    type: "object",
    properties: {
      node_names: {
        type: "array",
        items: { type: "string", minLength: 1, maxLength: 200 },
        minItems: 1,
        maxItems: 100,
        description: "Names of the nodes to retrieve.",
      },
      include_metadata: { type: "boolean", default: false, description: "Include each node's metadata." },
    },
    required: ["node_names"],
    additionalProperties: false,
  },
  async run(db, ctx, raw) {
    const names = (raw as { node_names?: unknown } | undefined)?.node_names;
    if (!Array.isArray(names) || names.length === 0) {
      throw new ValidationError("node_names is required", { node_names: ["node_names is required"] });
    }
    const { node_names, include_metadata } = parseToolArgs(argsSchema, raw);
    const found = new Map(
      (await findKnowledgeNodesByName(db, ctx.orgId, node_names)).map((node) => [node.name, node]),
    );
    const results = node_names.map((name) => {
      const node = found.get(name);
      if (!node) return { node_name: name, found: false, knowledge: null };
      return {
        node_name: name,
        found: true,
        knowledge: node.content,
        ...(include_metadata ? { metadata: node.metadata } : {}),
      };
    });
    return jsonResult({ success: true, results, total_nodes: results.length });
  },
};
