/** A tool an MCP server offers, tagged with the integration it came from. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  integrationId: string;
}

export interface McpResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  integrationId: string;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPrompt {
  name: string;
  description?: string;
  arguments: McpPromptArgument[];
  integrationId: string;
}

export interface CapabilitiesResult {
  tools: McpTool[];
  resources: McpResource[];
  prompts: McpPrompt[];
}

/** MCP content as the server sent it: text, image, audio, embedded resource or resource link. */
export type McpContent = Record<string, unknown> & { type: string };

/** What a tool call gives back; a failure on the server is a result the LLM can read, not an exception. */
export interface ToolExecutionResult {
  isError: boolean;
  content: McpContent[] | null;
  structuredContent?: Record<string, unknown>;
  errorMessage?: string;
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
  timeoutMs: number;
} & (
  | {
      transport: "streamable-http" | "sse";
      url: string;
      headers: Record<string, string>;
      allowPrivateNetwork: boolean;
      oauth?: McpOAuthConnection;
    }
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
);

/** What the integration use cases need from an MCP client; tests may fake it. */
export interface McpClientPort {
  listCapabilities(config: McpConnectionConfig): Promise<{
    tools: Omit<McpTool, "integrationId">[];
    resources: Omit<McpResource, "integrationId">[];
    prompts: Omit<McpPrompt, "integrationId">[];
  }>;
  executeTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolExecutionResult>;
  readResource(config: McpConnectionConfig, uri: string): Promise<ResourceReadResult>;
  listResourceTemplates(config: McpConnectionConfig): Promise<McpResourceTemplate[]>;
  getPrompt(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ): Promise<PromptGetResult>;
}

export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** One item of a resources/read answer: text, or base64 in `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ResourceReadResult {
  contents: McpResourceContents[];
}

export interface McpPromptMessage {
  role: "user" | "assistant";
  content: McpContent;
}

export interface PromptGetResult {
  description?: string;
  messages: McpPromptMessage[];
}
