import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import { untilAborted } from "../client/until-aborted";
import { McpConnectionError, McpErrorCode } from "../errors";
import type { McpFeatures } from "../types";
import { mcpUseCases } from "../use-cases";
import { loadIntegrationForOrg } from "./load-integration";

export type ConnectionTestResult =
  | { ok: true; latencyMs: number; capabilities: McpFeatures }
  | { ok: false; latencyMs: number; error: string };

// Unavailable answers a test reports as its outcome: the server could not be reached, or no process may start.
const TEST_OUTCOMES = new Set<string>([McpErrorCode.MCP_CONNECTION_FAILED, McpErrorCode.MCP_PROCESS_LIMIT]);

/**
 * "Test connection": a live discovery on a connection of its own, whose outcome is also stored as the integration's
 * status and settles its state; `signal`
 * cancels it on the server, and then nothing is stored (except for a first check, which goes on).
 */
export async function testIntegration(
  db: Database,
  ctx: RequestContext,
  id: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ConnectionTestResult> {
  const row = await loadIntegrationForOrg(db, ctx, id);
  const started = performance.now();
  try {
    const discover = mcpUseCases(db).discover;
    // The first check of an integration runs to its end even when the browser stops waiting (leaving the page
    // right after adding it, say): every surface needs its tools. Later checks are cancelled on the server.
    // On a connection of its own, whatever the pooled session's state: it tests the server.
    const capabilities = row.discovered
      ? await discover(ctx, { integrationId: row.id }, { signal, fresh: true })
      : await (signal
          ? untilAborted(
              discover(ctx, { integrationId: row.id }, { fresh: true }),
              signal,
              () => new McpConnectionError(row.id, "The call was cancelled before the server answered."),
            )
          : discover(ctx, { integrationId: row.id }, { fresh: true }));
    return { ok: true, latencyMs: Math.round(performance.now() - started), capabilities };
  } catch (error) {
    if (!(error instanceof AppError) || (error.status >= 500 && !TEST_OUTCOMES.has(error.code))) throw error;
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: error.message };
  }
}
