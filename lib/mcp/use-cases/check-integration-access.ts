import type { RequestContext } from "@/lib/auth/context";
import { UnauthorizedError } from "@/lib/errors";
import type { Logger } from "@/lib/logger";
import {
  McpIntegrationAccessDeniedError,
  McpIntegrationDisabledError,
  McpIntegrationNotFoundError,
} from "../errors";
import type { McpIntegration, McpIntegrationsRepositoryPort } from "../repository";
import type { McpClientPort, McpConnectionConfig } from "../types";

/** What both use cases are built from: explicit ports, fakeable in tests. */
export interface McpUseCaseDeps {
  repository: McpIntegrationsRepositoryPort;
  client: McpClientPort;
  /** The caller matters for OAuth integrations whose users each connect their own account. */
  buildConnectionConfig: (integration: McpIntegration, ctx?: RequestContext | null) => McpConnectionConfig;
  logger: Logger;
}

/**
 * The checks both use cases make, in the seeds' order: signed in, exists, same organization (taken from the
 * request context, never from the input), enabled.
 */
export async function loadAccessibleIntegration(
  ctx: RequestContext | null | undefined,
  repository: McpIntegrationsRepositoryPort,
  integrationId: string,
): Promise<McpIntegration> {
  const orgId = ctx?.orgId;
  if (!orgId) throw new UnauthorizedError("User not authenticated");
  const integration = await repository.findById(integrationId);
  if (!integration) throw new McpIntegrationNotFoundError(integrationId);
  if (integration.organizationId !== orgId) throw new McpIntegrationAccessDeniedError(integrationId);
  if (!integration.enabled) throw new McpIntegrationDisabledError(integrationId);
  return integration;
}
