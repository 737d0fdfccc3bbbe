import type { ReadResourceResult, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "@/lib/auth/context";
import type { McpUseCaseDeps } from "./check-integration-access";
import { type IntegrationTarget, runOnIntegration } from "./run-on-integration";

export interface ReadMcpResourceQuery extends IntegrationTarget {
  uri: string;
}

/** Reads one resource of an integration (resources/read), after the same access checks as the other use cases. */
export class ReadMcpResource {
  constructor(private readonly deps: McpUseCaseDeps) {}

  execute(ctx: RequestContext | null | undefined, query: ReadMcpResourceQuery): Promise<ReadResourceResult> {
    return runOnIntegration(
      this.deps,
      ctx,
      query,
      "resourceRead",
      { uri: query.uri },
      (config) => this.deps.client.readResource(config, query.uri),
      (result) => ({ contentCount: result.contents.length }),
    );
  }
}

/** Lists an integration's resource templates (resources/templates/list). */
export class ListMcpResourceTemplates {
  constructor(private readonly deps: McpUseCaseDeps) {}

  execute(ctx: RequestContext | null | undefined, query: IntegrationTarget): Promise<ResourceTemplate[]> {
    return runOnIntegration(
      this.deps,
      ctx,
      query,
      "resourceTemplatesListed",
      {},
      (config) => this.deps.client.listResourceTemplates(config),
      (templates) => ({ templateCount: templates.length }),
    );
  }
}
