import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  CompatibilityCallToolResult,
  CompleteRequest,
  CompleteResult,
  EmptyResult,
  GetPromptRequest,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedRequest,
  ReadResourceRequest,
  ReadResourceResult,
  ServerCapabilities,
  SubscribeRequest,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * What the integrations' client asks of a connection to a server, whichever revision it speaks: the 1.x SDK's
 * client (2025-11-25 and older) is one as it is, and the v2 client at 2026-07-28 is one through
 * `ModernUpstreamClient`, which hands over the same messages in the same types and fails with the same errors.
 */
export interface UpstreamClient {
  getServerCapabilities(): ServerCapabilities | undefined;
  getServerVersion(): Implementation | undefined;
  listTools(params?: PaginatedRequest["params"], options?: RequestOptions): Promise<ListToolsResult>;
  listResources(params?: PaginatedRequest["params"], options?: RequestOptions): Promise<ListResourcesResult>;
  listResourceTemplates(
    params?: PaginatedRequest["params"],
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult>;
  listPrompts(params?: PaginatedRequest["params"], options?: RequestOptions): Promise<ListPromptsResult>;
  callTool(
    params: CallToolRequest["params"],
    resultSchema?: undefined,
    options?: RequestOptions,
  ): Promise<CallToolResult | CompatibilityCallToolResult>;
  readResource(params: ReadResourceRequest["params"], options?: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(params: GetPromptRequest["params"], options?: RequestOptions): Promise<GetPromptResult>;
  complete(params: CompleteRequest["params"], options?: RequestOptions): Promise<CompleteResult>;
  subscribeResource(params: SubscribeRequest["params"], options?: RequestOptions): Promise<EmptyResult>;
  /** A check that the server answers: `ping` at 2025-11-25, `server/discover` at 2026-07-28 (which has no ping). */
  ping(options?: RequestOptions): Promise<unknown>;
  close(): Promise<void>;
  onclose?: () => void;
}
