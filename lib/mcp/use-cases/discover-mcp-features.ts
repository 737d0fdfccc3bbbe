import type { RequestContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import { countDiscovery } from "@/lib/metrics/record";
import { McpErrorCode, UnexpectedMcpError } from "../errors";
import type { CatalogIntegration } from "../repository";
import type { McpClientPort, McpFeatures } from "../types";
import { loadAccessibleIntegration, type McpUseCaseDeps } from "./check-integration-access";

/**
 * A user's own missing or broken OAuth connection, this host at its limit of local server processes, a call this
 * app interrupted (the integration was disabled meanwhile), or one refused because the server is known to be
 * failing, says nothing new about the integration itself.
 */
function saysNothingAboutTheServer(error: unknown, integration: CatalogIntegration): boolean {
  if (!(error instanceof AppError)) return false;
  if (error.code === McpErrorCode.MCP_OAUTH_NOT_CONNECTED) return true;
  if (error.code === McpErrorCode.MCP_PROCESS_LIMIT) return true;
  if (error.code === McpErrorCode.MCP_CALL_INTERRUPTED) return true;
  if (error.code === McpErrorCode.MCP_UNAVAILABLE) return true;
  return error.code === McpErrorCode.MCP_OAUTH_RECONNECT && integration.oauth?.credentials === "user";
}

export interface DiscoverMcpFeaturesQuery {
  integrationId: string;
}

export type DiscoverMcpFeaturesDeps = McpUseCaseDeps & {
  /** Told which of the integration's lists a discovery found changed since the last one. */
  listsChanged?(integration: CatalogIntegration, kinds: ("tools" | "resources" | "prompts")[]): Promise<void>;
};

/** The lists that differ from the ones discovered before (none when there were none before). */
function changedLists(
  before: CatalogIntegration["discovered"],
  after: NonNullable<CatalogIntegration["discovered"]>,
) {
  if (!before) return [];
  const kinds = ["tools", "resources", "prompts"] as const;
  return kinds.filter((kind) => JSON.stringify(before[kind] ?? []) !== JSON.stringify(after[kind]));
}

/** Connects to an integration's MCP server and returns its tools, resources and prompts as domain entities. */
export class DiscoverMcpFeatures {
  constructor(private readonly deps: DiscoverMcpFeaturesDeps) {}

  /** `fresh` discovers over a connection of its own, as a check of the server (health checks, "Test connection"). */
  async execute(
    ctx: RequestContext | null | undefined,
    query: DiscoverMcpFeaturesQuery,
    { signal, fresh }: { signal?: AbortSignal; fresh?: boolean } = {},
  ): Promise<McpFeatures> {
    const { logger, repository, client } = this.deps;
    const started = performance.now();
    logger.info("discoverMcpCapabilities", { integrationId: query.integrationId, orgId: ctx?.orgId });
    try {
      const integration = await loadAccessibleIntegration(ctx, repository, query.integrationId);
      const config = this.deps.buildConnectionConfig(integration, ctx);
      let listed: Awaited<ReturnType<McpClientPort["listFeatures"]>>;
      try {
        listed = await client.listFeatures(config, { signal, fresh });
      } catch (error) {
        const latencyMs = Math.round(performance.now() - started);
        const message = error instanceof AppError ? error.message : "Unexpected error occurred";
        // Nor does a caller that stopped waiting.
        if (!signal?.aborted && !saysNothingAboutTheServer(error, integration)) {
          countDiscovery(integration.id, false);
          await repository.recordDiscovery(integration.id, { ok: false, latencyMs, error: message });
        }
        throw error;
      }
      const result: McpFeatures = {
        tools: listed.tools.map((tool) => ({ ...tool, integrationId: integration.id })),
        resources: listed.resources.map((resource) => ({ ...resource, integrationId: integration.id })),
        prompts: listed.prompts.map((prompt) => ({ ...prompt, integrationId: integration.id })),
      };
      const latencyMs = Math.round(performance.now() - started);
      countDiscovery(integration.id, true);
      const discovered = { tools: listed.tools, resources: listed.resources, prompts: listed.prompts };
      await repository.recordDiscovery(integration.id, { ok: true, latencyMs, discovered });
      await this.deps.listsChanged?.(integration, changedLists(integration.discovered, discovered));
      logger.info("discoverySucceeded", {
        integrationId: integration.id,
        toolCount: result.tools.length,
        resourceCount: result.resources.length,
        promptCount: result.prompts.length,
        durationMs: latencyMs,
      });
      return result;
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (error instanceof AppError) {
        logger.warn("discoveryFailed", {
          integrationId: query.integrationId,
          code: error.code,
          message: error.message,
          durationMs,
        });
        throw error;
      }
      logger.error("Unexpected error discovering capabilities", {
        integrationId: query.integrationId,
        err: error,
        durationMs,
      });
      throw new UnexpectedMcpError("Unexpected error occurred", query.integrationId, error);
    }
  }
}
