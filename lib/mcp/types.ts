import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { UpstreamRpcError } from "./errors";
import type { IntegrationState } from "./integration-state";

// The MCP shapes are the SDK's own types; the domain only adds the integration each item came from.

/** A tool an MCP server offers, tagged with the integration it came from. */
export type McpTool = Tool & { integrationId: string };

/** A resource an MCP server lists, tagged with the integration it came from. */
export type McpResource = Resource & { integrationId: string };

/** A prompt an MCP server offers, tagged with the integration it came from. */
export type McpPrompt = Prompt & { integrationId: string };

export interface McpFeatures {
  tools: McpTool[];
  resources: McpResource[];
  prompts: McpPrompt[];
}

/** What a tool call gives back; a failure on the server is a result the LLM can read, not an exception. */
export interface ToolExecutionResult {
  isError: boolean;
  /** The content as the server sent it; null when the call itself failed (no answer, a lost connection). */
  content: CallToolResult["content"] | null;
  structuredContent?: CallToolResult["structuredContent"];
  errorMessage?: string;
  /**
   * Why a call failed without the server's result: its integration is unavailable (the server is failing, or did
   * not answer), or the server answered with an MCP error, kept as it sent it for MCP clients.
   */
  failure?: { kind: "unavailable"; state?: IntegrationState } | { kind: "upstream"; rpc: UpstreamRpcError };
}

export type McpTransport = "streamable-http" | "sse" | "stdio";
export type McpAuthType = "none" | "bearer" | "headers" | "oauth";

/** How an OAuth connection authorizes a session's requests, and whose credentials those are. */
export interface McpOAuthConnection {
  /** "organization" or the user's id: sessions of different owners of one integration are kept apart. */
  owner: string;
  /** Wraps the session's fetch to send (and renew) the access token. */
  authorize(fetchFn: typeof fetch): typeof fetch;
}

/** Everything needed to open a session with one server; credentials are decrypted only into this. */
export type McpConnectionConfig = {
  integrationId: string;
  /** The integration's organization, from its row: a stdio server's process counts against its limit. */
  orgId: string;
  timeoutMs: number;
  /** Called when the server says its tools, resources or prompts changed. */
  onListChanged?: () => void;
  /** Called when the server says a resource someone subscribed to changed. */
  onResourceUpdated?: (uri: string) => void;
  /** Told when the integration's state changes (see IntegrationState). */
  onStateChange?: (state: IntegrationState) => void;
  /**
   * The caller's own session, when it keeps per-client state with the server (a pass-through client's session):
   * it gets an upstream session of its own. Unset, calls share the integration's pooled session.
   */
  sessionKey?: string;
} & (
  | {
      transport: "streamable-http" | "sse";
      url: string;
      headers: Record<string, string>;
      allowPrivateNetwork: boolean;
      oauth?: McpOAuthConnection;
    }
  | {
      transport: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      /** What messages call the command (a bundled server's package), never this host's path to it. */
      displayName?: string;
      /** A folder of the integration's own, created before the process starts (for servers that keep data). */
      dataFolder?: string;
    }
);

/** What the integration use cases need from an MCP client; tests may fake it. */
export interface McpClientPort {
  /**
   * `signal` cancels the listing: the server is told, and the call ends at once. `fresh` lists over a connection
   * of its own (a check of the server, not of a pooled session), whatever the integration's state.
   */
  listFeatures(
    config: McpConnectionConfig,
    options?: { signal?: AbortSignal; fresh?: boolean },
  ): Promise<{
    tools: Tool[];
    resources: Resource[];
    prompts: Prompt[];
  }>;
  /** `signal` cancels the call: the server is told, and the call ends at once. */
  executeTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ToolExecutionResult>;
  readResource(config: McpConnectionConfig, uri: string): Promise<ReadResourceResult>;
  listResourceTemplates(config: McpConnectionConfig): Promise<ResourceTemplate[]>;
  getPrompt(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult>;
  /** Suggestions for a prompt's or resource template's argument; none from a server that offers no completion. */
  complete(config: McpConnectionConfig, params: CompleteRequest["params"]): Promise<CompleteResult>;
  /** Asks the server to say when the resource changes (through the connection's `onResourceUpdated`). */
  subscribeResource(config: McpConnectionConfig, uri: string): Promise<void>;
  /** The integration's state as this process knows it from its calls (undefined when it has made none). */
  stateOf?(integrationId: string): IntegrationState | undefined;
}

/** What a discovery found, as stored with the integration. */
export type { DiscoveredSnapshot } from "@/db/schema";
