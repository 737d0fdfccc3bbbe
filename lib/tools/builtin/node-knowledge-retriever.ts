import { z } from "zod";
import { findKnowledgeNodesByName } from "@/lib/knowledge/nodes";
import { jsonResult } from "../types";
import { defineBuiltinTool, READS_OWN_KNOWLEDGE } from "./define";

// Seed 002, requirement 3.4: empty or missing (or not a list) is answered with exactly this.
const NODE_NAMES_REQUIRED = "node_names is required";

export const nodeKnowledgeRetrieverArgs = z
  .object({
    node_names: z
      .array(z.string().min(1).max(200), { error: NODE_NAMES_REQUIRED })
      .min(1, { error: NODE_NAMES_REQUIRED })
      .max(100)
      .meta({ description: "Names of the nodes to retrieve." }),
    include_metadata: z.boolean().default(false).meta({ description: "Include each node's metadata." }),
  })
  .strict();

/** Fetches the knowledge of named nodes (seed 002, requirement 3). */
export const nodeKnowledgeRetriever = defineBuiltinTool({
  name: "node_knowledge_retriever",
  title: "Retrieve knowledge nodes",
  annotations: READS_OWN_KNOWLEDGE,
  description:
    "Retrieve the stored knowledge of one or more nodes by their exact names. Returns, per requested node, whether it was found and its knowledge; metadata only when include_metadata is true.",
  args: nodeKnowledgeRetrieverArgs,
  async run(db, ctx, { node_names, include_metadata }) {
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
});
