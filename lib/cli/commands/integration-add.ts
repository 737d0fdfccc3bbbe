import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { type CliCommand, CliUsageError, requireOption } from "../command";
import { operatorContext } from "../operator-context";

function parseHeaders(values: unknown): Record<string, string> {
  const list = Array.isArray(values) ? (values as string[]) : [];
  return Object.fromEntries(
    list.map((pair) => {
      const index = pair.indexOf("=");
      if (index <= 0) throw new CliUsageError(`--header takes Name=value, got "${pair}".`);
      return [pair.slice(0, index).trim(), pair.slice(index + 1)];
    }),
  );
}

export const integrationAdd: CliCommand = {
  name: "integration:add",
  usage:
    "integration:add --org <slug> --name <name> (--url <url> [--transport http|sse] [--header K=V]... [--token T] [--oauth [--each-user] [--scope S] [--client-id ID] [--client-secret S]] | --command <cmd> [--arg A]... | --catalog <key> [--credential K=V]...) [--timeout-ms N]",
  description: "Connect an MCP server to an organization.",
  options: {
    org: { type: "string" },
    name: { type: "string" },
    url: { type: "string" },
    transport: { type: "string" },
    header: { type: "string", multiple: true },
    token: { type: "string" },
    command: { type: "string" },
    arg: { type: "string", multiple: true },
    catalog: { type: "string" },
    credential: { type: "string", multiple: true },
    oauth: { type: "boolean" },
    "each-user": { type: "boolean" },
    scope: { type: "string" },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    "timeout-ms": { type: "string" },
  },
  async run(db, { values }, io) {
    const ctx = await operatorContext(db, requireOption(values, "org"));
    const timeoutMs = typeof values["timeout-ms"] === "string" ? Number(values["timeout-ms"]) : undefined;
    const sources = ["url", "command", "catalog"].filter((key) => typeof values[key] === "string");
    if (sources.length !== 1) throw new CliUsageError("Give exactly one of --url, --command or --catalog.");
    let input: Parameters<typeof createIntegration>[2];
    if (typeof values.catalog === "string") {
      input = {
        source: "catalog",
        presetKey: values.catalog,
        name: values.name as string | undefined,
        credentials: parseHeaders(values.credential),
        timeoutMs,
      };
    } else if (typeof values.command === "string") {
      input = {
        source: "custom",
        name: requireOption(values, "name"),
        transport: "stdio",
        command: values.command,
        args: (values.arg as string[] | undefined) ?? [],
        timeoutMs,
      };
    } else {
      const transport = values.transport ?? "http";
      if (transport !== "http" && transport !== "sse") throw new CliUsageError("--transport is http or sse.");
      const headers = parseHeaders(values.header);
      const token = values.token as string | undefined;
      // OAuth is connected afterwards, in the browser, on the integration's page.
      const oauth = values.oauth === true;
      if (oauth && (token || Object.keys(headers).length > 0))
        throw new CliUsageError("--oauth takes the place of --token and --header.");
      input = {
        source: "custom",
        name: requireOption(values, "name"),
        transport: transport === "sse" ? "sse" : "streamable-http",
        url: values.url as string,
        authType: oauth ? "oauth" : token ? "bearer" : Object.keys(headers).length > 0 ? "headers" : "none",
        token,
        headers,
        ...(oauth
          ? {
              oauthCredentials: values["each-user"] === true ? "user" : "organization",
              oauthScope: values.scope as string | undefined,
              oauthClientId: values["client-id"] as string | undefined,
              oauthClientSecret: values["client-secret"] as string | undefined,
            }
          : {}),
        timeoutMs,
      };
    }
    const integration = await createIntegration(db, ctx, input, { operator: true });
    const next = integration.oauth
      ? `\nIt uses OAuth: connect it on its page in the app (Integrations → ${integration.name}).`
      : "";
    io.print(`Added integration ${integration.name} (${integration.slug}, ${integration.id}).${next}`, {
      id: integration.id,
      name: integration.name,
      slug: integration.slug,
      transport: integration.transport,
    });
  },
};
