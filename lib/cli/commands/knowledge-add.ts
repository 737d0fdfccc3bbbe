import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { type CliCommand, CliUsageError, requireOption } from "../command";
import { operatorContext } from "../operator-context";

export const knowledgeAdd: CliCommand = {
  name: "knowledge:add",
  usage: "knowledge:add --org <slug> --name <node> --content <text> [--metadata JSON]",
  description: "Add a knowledge node to an organization.",
  options: {
    org: { type: "string" },
    name: { type: "string" },
    content: { type: "string" },
    metadata: { type: "string" },
  },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    let metadata: unknown = {};
    if (typeof values.metadata === "string") {
      try {
        metadata = JSON.parse(values.metadata);
      } catch {
        throw new CliUsageError('--metadata must be a JSON object, like \'{"owner":"ops"}\'.');
      }
    }
    const node = await createKnowledgeNode(db, ctx, {
      name: requireOption(values, "name"),
      content: requireOption(values, "content"),
      metadata,
    });
    io.print(`Added knowledge node ${node.name}.`, { id: node.id, name: node.name });
  },
};
