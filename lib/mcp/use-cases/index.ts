import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";
import { getMcpClient } from "../client/shared-client";
import { buildConnectionConfig } from "../connection-config";
import { integrationOAuthConnection } from "../oauth/integration-connection";
import { type CatalogIntegration, createIntegrationsRepository } from "../repository";
import type { McpClientPort } from "../types";
import { CompleteMcpArgument } from "./complete-mcp-argument";
import { DiscoverMcpCapabilities } from "./discover-mcp-capabilities";
import { ExecuteMcpTool } from "./execute-mcp-tool";
import { GetMcpPrompt } from "./get-mcp-prompt";
import { ListMcpResourceTemplates, ReadMcpResource } from "./read-mcp-resource";

function wireUseCases(db: Database, client: McpClientPort) {
  const deps = {
    repository: createIntegrationsRepository(db),
    client,
    buildConnectionConfig: (integration: CatalogIntegration, ctx?: RequestContext | null) =>
      buildConnectionConfig(integration, (oauth) => integrationOAuthConnection(db, oauth, ctx)),
  };
  return {
    discover: new DiscoverMcpCapabilities({ ...deps, logger: logger.child({ component: "mcp.discover" }) }),
    execute: new ExecuteMcpTool({ ...deps, logger: logger.child({ component: "mcp.execute" }) }),
    readResource: new ReadMcpResource({ ...deps, logger: logger.child({ component: "mcp.resources" }) }),
    listResourceTemplates: new ListMcpResourceTemplates({
      ...deps,
      logger: logger.child({ component: "mcp.resources" }),
    }),
    getPrompt: new GetMcpPrompt({ ...deps, logger: logger.child({ component: "mcp.prompts" }) }),
    complete: new CompleteMcpArgument({ ...deps, logger: logger.child({ component: "mcp.completion" }) }),
  };
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
