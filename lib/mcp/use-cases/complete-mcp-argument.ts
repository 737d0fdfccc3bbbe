import type { CompleteRequest, CompleteResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "@/lib/auth/context";
import type { McpUseCaseDeps } from "./check-integration-access";
import { type IntegrationTarget, runOnIntegration } from "./run-on-integration";

export interface CompleteMcpArgumentQuery extends IntegrationTarget {
  params: CompleteRequest["params"];
}

/** Asks an integration's server to complete an argument of one of its prompts or resource templates. */
export class CompleteMcpArgument {
  constructor(private readonly deps: McpUseCaseDeps) {}

  execute(ctx: RequestContext | null | undefined, query: CompleteMcpArgumentQuery): Promise<CompleteResult> {
    return runOnIntegration(
      this.deps,
      ctx,
      query,
      "argumentCompleted",
      { argument: query.params.argument.name },
      (config) => this.deps.client.complete(config, query.params),
      (result) => ({ valueCount: result.completion.values.length }),
    );
  }
}
