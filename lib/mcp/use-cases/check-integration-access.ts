import type { RequestContext } from "@/lib/auth/context";
import { UnauthorizedError } from "@/lib/errors";
import type { Logger } from "@/lib/logger";
import {
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpIntegrationNotFoundError,
} from "../errors";
import type { CatalogIntegration, McpIntegrationsRepositoryPort } from "../repository";
import type { McpClientPort, McpConnectionConfig } from "../types";

/** What both use cases are built from: explicit ports, fakeable in tests. */
export interface McpUseCaseDeps {
  repository: McpIntegrationsRepositoryPort;
  client: McpClientPort;
  /**
   * The caller matters for OAuth integrations whose users each connect their own account; a caller's own session
   * (`sessionKey`) gets an upstream session of its own.
   */
  buildConnectionConfig(
    integration: CatalogIntegration,
    ctx?: RequestContext | null,
    options?: { sessionKey?: string },
  ): McpConnectionConfig;
  logger: Logger;
}

/**
 * The checks both use cases make, in the seeds' order: signed in, exists, same organization (taken from the
 * request context, never from the input), enabled. A caller that has the integration already (the tool catalog
 * keeps it) passes it as `known`, and it is checked the same way instead of read again.
 */
export async function loadAccessibleIntegration(
  ctx: RequestContext | null | undefined,
  repository: McpIntegrationsRepositoryPort,
  integrationId: string,
  known?: CatalogIntegration,
): Promise<CatalogIntegration> {
  const orgId = ctx?.orgId;
  if (!orgId) throw new UnauthorizedError("User not authenticated");
  const integration = known?.id === integrationId ? known : await repository.findById(integrationId);
  if (!integration) throw new McpIntegrationNotFoundError(integrationId);
  if (integration.organizationId !== orgId) throw new McpIntegrationAccessDeniedError(integrationId);
  if (!integration.enabled) throw new McpIntegrationDisabledError(integrationId);
  return integration;
}
