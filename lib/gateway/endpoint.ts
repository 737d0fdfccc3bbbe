import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/server";
import type { DownstreamRelay } from "@/lib/mcp/relay/downstream-relay";

/** What an upstream server says during one call, relayed to the client; `sent` settles once all of it is out. */
export type CallRelay = DownstreamRelay & { sent(): Promise<void> };

/**
 * How one call runs: cancelled by its signal, relaying what the upstream server says when the client can hear it,
 * and on an upstream session of the client's own when `upstreamSession` names it.
 */
export interface GatewayCall {
  signal: AbortSignal;
  relay?: CallRelay;
  upstreamSession?: string;
}

/**
 * What one MCP endpoint serves one caller, whatever the protocol revision: the aggregated gateway (the
 * organization's catalog) or one integration passed through under its own names. Lists are whole; the server pages
 * them.
 */
export interface McpEndpoint {
  info: Implementation;
  instructions: string;
  tools(): Promise<Tool[]>;
  /**
   * The input schema of the tool by this name when it mirrors arguments in headers (`x-mcp-header`, SEP-2243),
   * which the SDK then checks against a 2026-07-28 request's headers; undefined for any other tool.
   */
  mirroringSchemaOf(name: string): Promise<Record<string, unknown> | undefined>;
  /** Whether the tool by this name is one its server runs as a task (its taskSupport is "required" or "optional"). */
  runsAsTask(name: string): Promise<boolean>;
  /** The whole tools/list result serialized once, for answering a lone listing without an SDK server. */
  serializedTools?(): Promise<Blob>;
  callTool(params: CallToolRequestParams, call: GatewayCall): Promise<CallToolResult>;
  resources(): Promise<Resource[]>;
  resourceTemplates(): Promise<ResourceTemplate[]>;
  /** A read, which (as a prompt and a tool call) may ask the client something through the call's relay. */
  readResource(uri: string, call?: GatewayCall): Promise<ReadResourceResult>;
  prompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, call?: GatewayCall): Promise<GetPromptResult>;
  complete(params: CompleteRequestParams): Promise<CompleteResult>;
  /** The integration and upstream URI that one of this endpoint's resources leads back to, if it is one. */
  resourceTarget(uri: string): Promise<{ integrationId: string; uri: string } | undefined>;
}
