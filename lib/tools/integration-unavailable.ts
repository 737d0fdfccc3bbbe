import { AppError } from "@/lib/errors";
import type { IntegrationState } from "@/lib/mcp/integration-state";

/** What a caller is told of an integration that cannot take a call: which one, its state, why, since when. */
export interface UnavailableIntegration {
  id: string;
  name: string;
  state: IntegrationState["state"] | "unknown";
  cause: string | null;
  since: string | null;
  nextTryAt: string | null;
}

/**
 * A tool whose integration cannot take the call: its server is failing or did not answer, or it was never
 * discovered, so its tools are not known. REST answers 503 with the integration's state; MCP clients and the chat
 * get an error result that names it.
 */
export class IntegrationUnavailableError extends AppError {
  readonly integration: UnavailableIntegration;

  constructor(
    readonly toolName: string,
    integration: { id: string; name: string },
    detail: string,
    state?: IntegrationState,
  ) {
    super("unavailable:mcp_integration", `${integration.name} is unavailable. ${detail}`);
    this.integration = {
      id: integration.id,
      name: integration.name,
      state: state?.state ?? "unknown",
      cause: state?.cause ?? null,
      since: state?.changedAt.toISOString() ?? null,
      nextTryAt: state?.nextTryAt?.toISOString() ?? null,
    };
  }

  override toJSON() {
    return { ...super.toJSON(), tool_name: this.toolName, integration: this.integration };
  }
}
