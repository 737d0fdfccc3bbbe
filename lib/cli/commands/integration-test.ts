import { AppError } from "@/lib/errors";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { findIntegrationBySlug, listIntegrationsForOrg } from "@/lib/mcp/repository";
import { type CliCommand, requireOption } from "../command";
import { operatorContext } from "../operator-context";

export const integrationTest: CliCommand = {
  name: "integration:test",
  usage: "integration:test --org <slug> --name <integration name or slug>",
  description: "Connect to an integration and print the tools, resources and prompts it offers.",
  options: { org: { type: "string" }, name: { type: "string" } },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    const name = requireOption(values, "name");
    const row =
      (await findIntegrationBySlug(db, ctx.orgId, name)) ??
      (await listIntegrationsForOrg(db, ctx.orgId)).find((integration) => integration.name === name);
    if (!row)
      throw new AppError("not_found:mcp_integration", `No integration named "${name}" in this organization.`);
    const result = await testIntegration(db, ctx, row.id);
    if (!result.ok) throw new AppError("unavailable:mcp_connection", `${row.name}: ${result.error}`);
    const { tools, resources, prompts } = result.capabilities;
    const section = (title: string, items: string[]) =>
      `${title} (${items.length})${items.map((i) => `\n  ${i}`).join("")}`;
    io.print(
      [
        `Connected to ${row.name} in ${result.latencyMs} ms.`,
        section(
          "Tools",
          tools.map((t) => `${t.name}${t.description ? ` — ${t.description.split("\n")[0]}` : ""}`),
        ),
        section(
          "Resources",
          resources.map((r) => `${r.uri}${r.name ? ` (${r.name})` : ""}`),
        ),
        section(
          "Prompts",
          prompts.map((p) => p.name),
        ),
      ].join("\n"),
      { latencyMs: result.latencyMs, tools, resources, prompts },
    );
  },
};
