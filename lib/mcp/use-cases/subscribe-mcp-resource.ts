import type { RequestContext } from "@/lib/auth/context";
import type { McpUseCaseDeps } from "./check-integration-access";
import { type IntegrationTarget, runOnIntegration } from "./run-on-integration";

export interface SubscribeMcpResourceCommand extends IntegrationTarget {
  uri: string;
}

/** Asks an integration's server to say when one of its resources changes. */
export class SubscribeMcpResource {
  constructor(private readonly deps: McpUseCaseDeps) {}

  execute(ctx: RequestContext | null | undefined, command: SubscribeMcpResourceCommand): Promise<void> {
    return runOnIntegration(
      this.deps,
      ctx,
      command,
      "resourceSubscribed",
      {},
      (config) => this.deps.client.subscribeResource(config, command.uri),
      () => ({}),
    );
  }
}
