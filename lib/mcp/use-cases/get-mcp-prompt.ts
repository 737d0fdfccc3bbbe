import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "@/lib/auth/context";
import type { McpUseCaseDeps } from "./check-integration-access";
import { type IntegrationTarget, runOnIntegration } from "./run-on-integration";

export interface GetMcpPromptQuery extends IntegrationTarget {
  name: string;
  arguments: Record<string, string>;
}

/** Renders one prompt of an integration (prompts/get) into the messages it stands for. */
export class GetMcpPrompt {
  constructor(private readonly deps: McpUseCaseDeps) {}

  execute(ctx: RequestContext | null | undefined, query: GetMcpPromptQuery): Promise<GetPromptResult> {
    return runOnIntegration(
      this.deps,
      ctx,
      query,
      "promptGot",
      { prompt: query.name },
      (config) => this.deps.client.getPrompt(config, query.name, query.arguments),
      (result) => ({ messageCount: result.messages.length }),
    );
  }
}
