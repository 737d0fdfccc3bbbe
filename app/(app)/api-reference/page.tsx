import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { CopyBlock } from "@/components/ui/copy-block";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listTools } from "@/lib/tools/catalog";

export const metadata: Metadata = { title: "API" };

function exampleParams(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!required.has(name)) continue;
    sample[name] =
      property.default ??
      (property.type === "array"
        ? ["example"]
        : property.type === "number" || property.type === "integer"
          ? 1
          : property.type === "boolean"
            ? true
            : "example");
  }
  return sample;
}

/** The REST reference for this organization: endpoints, every tool's schema, and curl lines to copy. */
export default async function ApiReferencePage() {
  const { db, ctx } = await requireSignedInPage();
  const tools = await listTools(db, ctx);
  const host = (await headers()).get("host") ?? "localhost:3000";
  const base = `${host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https"}://${host}`;
  const list = `curl -s ${base}/api/mcp/tools \\\n  -H "Authorization: Bearer $SWITCHBOARD_API_KEY"`;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">API</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Call this organization&apos;s tools from any system. Put an API key in{" "}
          <code>SWITCHBOARD_API_KEY</code>
          {isAdminRole(ctx.role) ? (
            <>
              {" "}
              (create one in{" "}
              <Link className="text-primary underline underline-offset-2" href="/settings/api-keys">
                API keys
              </Link>
              )
            </>
          ) : (
            " (ask an owner or admin for one)"
          )}
          . The machine-readable description is at{" "}
          <a className="text-primary underline underline-offset-2" href="/api/openapi.json">
            /api/openapi.json
          </a>
          .
        </p>
      </div>
      <Card className="grid gap-3">
        <CardTitle>List tools</CardTitle>
        <CardDescription>
          <code>GET /api/mcp/tools</code> answers every tool with its name, description and parameters as JSON
          Schema.
        </CardDescription>
        <CopyBlock text={list} />
      </Card>
      <Card className="grid gap-3">
        <CardTitle>Invoke a tool</CardTitle>
        <CardDescription>
          <code>POST /api/mcp/invoke</code> with <code>{'{"tool_name": …, "params": {…}}'}</code>. Errors: 400
          for an unknown tool or invalid params (each field named), 401 without a valid key, 403 when the
          tool&apos;s integration is disabled, 429 over the rate limit (see <code>Retry-After</code>), 500
          when the tool itself fails.
        </CardDescription>
      </Card>
      <ul className="grid gap-3" aria-label="Tools">
        {tools.map((tool) => (
          <li key={tool.name}>
            <Card className="grid gap-3">
              <div>
                <CardTitle>
                  <code>{tool.name}</code>
                </CardTitle>
                <CardDescription>{tool.description}</CardDescription>
              </div>
              <CopyBlock
                text={`curl -s ${base}/api/mcp/invoke \\\n  -H "Authorization: Bearer $SWITCHBOARD_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify({ tool_name: tool.name, params: exampleParams(tool.inputSchema) }).replaceAll("'", "'\\''")}'`}
              />
              <details>
                <summary className="cursor-pointer text-sm text-muted-foreground">
                  Parameters (JSON Schema)
                </summary>
                <pre className="mt-2 overflow-x-auto rounded bg-muted p-3 text-xs">
                  {JSON.stringify(tool.inputSchema, null, 2)}
                </pre>
              </details>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
