import { listIntegrations } from "@/lib/mcp/integrations/list-integrations";
import { plural } from "@/lib/plural";
import { type CliCommand, requireOption } from "../command";
import { operatorContext } from "../operator-context";

export const integrationList: CliCommand = {
  name: "integration:list",
  usage: "integration:list --org <slug>",
  description: "List an organization's integrations with their status.",
  options: { org: { type: "string" } },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    const integrations = await listIntegrations(db, ctx);
    const lines = integrations.map((i) => {
      const counts = i.counts
        ? ` ${plural(i.counts.tools, "tool")}, ${plural(i.counts.resources, "resource")}, ${plural(i.counts.prompts, "prompt")}`
        : "";
      return `${i.slug}\t${i.name}\t${i.transport}\t${i.status}${counts}${i.lastError ? `\t${i.lastError}` : ""}`;
    });
    io.print(
      lines.length ? lines.join("\n") : "No integrations yet.",
      // `catalogKey` is the preset's key, under the name scripts have read since the JSON output began.
      integrations.map(({ discovered: _discovered, presetKey, ...rest }) => ({
        ...rest,
        catalogKey: presetKey,
      })),
    );
  },
};
