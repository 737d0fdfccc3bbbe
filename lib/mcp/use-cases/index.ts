import type { Database } from "@/db/client";
import { type RequestContext, systemContext } from "@/lib/auth/context";
import { announceListChanges } from "@/lib/gateway/sessions/list-changes";
import { announceResourceUpdated } from "@/lib/gateway/sessions/resource-updates";
import { logger } from "@/lib/logger";
import { getMcpClient } from "../client/shared-client";
import { buildConnectionConfig } from "../connection-config";
import type { IntegrationState } from "../integration-state";
import { integrationOAuthConnection } from "../oauth/session-authorization";
import { type CatalogIntegration, createIntegrationsRepository, recordIntegrationState } from "../repository";
import type { McpClientPort } from "../types";
import { CompleteMcpArgument } from "./complete-mcp-argument";
import { DiscoverMcpFeatures } from "./discover-mcp-features";
import { ExecuteMcpTool } from "./execute-mcp-tool";
import { GetMcpPrompt } from "./get-mcp-prompt";
import { ListMcpResourceTemplates, ReadMcpResource } from "./read-mcp-resource";
import { SubscribeMcpResource } from "./subscribe-mcp-resource";

const LIST_CHANGED_QUIET_MS = 1000;

function wireUseCases(db: Database, client: McpClientPort) {
  const deps = {
    repository: createIntegrationsRepository(db),
    client,
    buildConnectionConfig: (
      integration: CatalogIntegration,
      ctx?: RequestContext | null,
      { sessionKey }: { sessionKey?: string } = {},
    ) => ({
      ...buildConnectionConfig(integration, (oauth) => integrationOAuthConnection(db, oauth, ctx)),
      // A server that says its lists changed is discovered again, and the gateway's clients hear of it.
      onListChanged: () => rediscover(integration),
      onResourceUpdated: (uri: string) => void announceResourceUpdated(db, integration, uri),
      // The pages show the state the calls and checks found, from the database.
      onStateChange: (state: IntegrationState) =>
        void recordIntegrationState(db, integration.id, state).catch((error: unknown) =>
          logger.warn("integration state not recorded", { integrationId: integration.id, err: error }),
        ),
      ...(sessionKey ? { sessionKey } : {}),
    }),
  };
  const discover = new DiscoverMcpFeatures({
    ...deps,
    logger: logger.child({ component: "mcp.discover" }),
    listsChanged: (integration, kinds) =>
      announceListChanges(db, integration.organizationId, kinds, integration.slug),
  });
  // Servers often say so right after they start (registering tools late), and some say so in bursts: a second's
  // quiet first, so that costs one listing.
  const pending = new Map<string, NodeJS.Timeout>();
  const rediscover = (integration: CatalogIntegration) => {
    clearTimeout(pending.get(integration.id));
    const timer = setTimeout(() => {
      pending.delete(integration.id);
      // Acts for the integration's own organization, as the health check does.
      const ctx = systemContext("list-changed", integration.organizationId);
      discover.execute(ctx, { integrationId: integration.id }).catch(() => {});
    }, LIST_CHANGED_QUIET_MS);
    timer.unref();
    pending.set(integration.id, timer);
  };
  const executeTool = new ExecuteMcpTool({ ...deps, logger: logger.child({ component: "mcp.execute" }) });
  const readResource = new ReadMcpResource({ ...deps, logger: logger.child({ component: "mcp.resources" }) });
  const listResourceTemplates = new ListMcpResourceTemplates({
    ...deps,
    logger: logger.child({ component: "mcp.resources" }),
  });
  const getPrompt = new GetMcpPrompt({ ...deps, logger: logger.child({ component: "mcp.prompts" }) });
  const complete = new CompleteMcpArgument({
    ...deps,
    logger: logger.child({ component: "mcp.completion" }),
  });
  const subscribeResource = new SubscribeMcpResource({
    ...deps,
    logger: logger.child({ component: "mcp.resources" }),
  });
  // Each use case is one verb, so callers say `mcpUseCases(db).executeTool(ctx, …)`.
  return {
    discover: verb(discover),
    executeTool: verb(executeTool),
    readResource: verb(readResource),
    listResourceTemplates: verb(listResourceTemplates),
    getPrompt: verb(getPrompt),
    complete: verb(complete),
    subscribeResource: verb(subscribeResource),
    /** The integration's state as this process knows it from its calls. */
    stateOf: (integrationId: string) => client.stateOf?.(integrationId),
  };
}

/** A use case's `execute`, bound, to call as a function. */
function verb<T extends { execute: (...args: never[]) => unknown }>(useCase: T): T["execute"] {
  return useCase.execute.bind(useCase) as T["execute"];
}

type McpUseCases = ReturnType<typeof wireUseCases>;
// They hold nothing of a request, so they are wired once per database and client, not on every call.
const wired = new WeakMap<Database, WeakMap<McpClientPort, McpUseCases>>();

/** The use cases wired to the real database, the shared pooled client and the structured logger. */
export function mcpUseCases(db: Database, client: McpClientPort = getMcpClient()): McpUseCases {
  let byClient = wired.get(db);
  if (!byClient) {
    byClient = new WeakMap();
    wired.set(db, byClient);
  }
  let useCases = byClient.get(client);
  if (!useCases) {
    useCases = wireUseCases(db, client);
    byClient.set(client, useCases);
  }
  return useCases;
}
