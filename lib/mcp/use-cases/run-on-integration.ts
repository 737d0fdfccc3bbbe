import type { RequestContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import { UnexpectedMcpError } from "../errors";
import type { McpConnectionConfig } from "../types";
import { loadAccessibleIntegration, type McpUseCaseDeps } from "./check-integration-access";

/** Which integration a request goes to, and the caller's own session with it if it keeps one (see sessionKey). */
export interface IntegrationTarget {
  integrationId: string;
  upstreamSession?: string;
}

/**
 * One request to an integration's server after the access checks, logged as `<event>` or `<event>Failed` with
 * its duration; our own errors pass through, anything else becomes `UnexpectedMcpError`.
 */
export async function runOnIntegration<T>(
  deps: McpUseCaseDeps,
  ctx: RequestContext | null | undefined,
  { integrationId, upstreamSession }: IntegrationTarget,
  event: string,
  fields: Record<string, unknown>,
  run: (config: McpConnectionConfig) => Promise<T>,
  summarize: (result: T) => Record<string, unknown>,
): Promise<T> {
  const started = performance.now();
  const logFields = { integrationId, orgId: ctx?.orgId, ...fields };
  try {
    const integration = await loadAccessibleIntegration(ctx, deps.repository, integrationId);
    const result = await run(deps.buildConnectionConfig(integration, ctx, { sessionKey: upstreamSession }));
    deps.logger.info(event, {
      ...logFields,
      ...summarize(result),
      durationMs: Math.round(performance.now() - started),
    });
    return result;
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof AppError) {
      deps.logger.warn(`${event}Failed`, {
        ...logFields,
        code: error.code,
        message: error.message,
        durationMs,
      });
      throw error;
    }
    deps.logger.error(`Unexpected error in ${event}`, { ...logFields, err: error, durationMs });
    throw new UnexpectedMcpError("Unexpected error occurred", integrationId, error);
  }
}
