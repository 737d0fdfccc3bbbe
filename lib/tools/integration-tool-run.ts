import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { type FieldErrors, ForbiddenError, NotFoundError } from "@/lib/errors";
import { loadIntegrationForOrg } from "@/lib/mcp/integrations/load-integration";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { integrationToolDescriptor, invokeTool, UnknownToolError } from "./catalog";
import type { ToolResult } from "./types";

/** What the tool runner shows: the tool's result, or why the call was refused, with a message per bad field. */
export type ToolRunResult = ToolResult & { fields?: FieldErrors };

/**
 * Runs one tool of an integration for the tool runner, through the catalog like every other surface, in a scope
 * holding only that integration: the arguments are checked against the tool's schema first (a ValidationError
 * names each bad field, as REST would), and the call is recorded with surface "runner". The tool's own failures
 * come back as error results; refusals (bad arguments, a disabled integration, an unknown tool) throw.
 */
export async function runIntegrationTool(
  db: Database,
  ctx: RequestContext,
  id: string,
  toolName: string,
  args: Record<string, unknown>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ToolResult> {
  const row = await loadIntegrationForOrg(db, ctx, id);
  // Its tools and their schemas are known only from a discovery: one never made is made now, and a failure (not
  // connected yet, refused credentials, unreachable) says why instead of the tool being unknown.
  if (row.enabled && !row.discovered) await mcpUseCases(db).discover(ctx, { integrationId: row.id });
  const tool = row.discovered?.tools.find((t) => t.name === toolName) ?? {
    name: toolName,
    inputSchema: { type: "object" },
  };
  const name = integrationToolDescriptor(row, tool).name;
  try {
    return await invokeTool(db, ctx, name, args, {
      surface: "runner",
      scope: { integrationIds: [row.id], builtins: [], capabilityIds: [] },
      signal,
    });
  } catch (error) {
    if (!(error instanceof UnknownToolError)) throw error;
    // The catalog knows a disabled integration's tools only from a discovery; one never discovered is still disabled.
    if (!row.enabled)
      throw new ForbiddenError(`The integration "${row.name}" is disabled; enable it to run its tools.`);
    throw new NotFoundError(`The tool "${toolName}" of ${row.name}`);
  }
}
