import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  McpClientPort,
  McpConnectionConfig,
  McpContent,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PromptGetResult,
  ResourceReadResult,
  ToolExecutionResult,
} from "../types";
import { describeMcpFailure } from "./describe-error";
import type { McpSessionPool } from "./session-pool";

// A server that keeps returning cursors must not keep us paging forever.
const MAX_PAGES = 100;

async function collectPages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

function textOf(content: McpContent[]): string | undefined {
  const text = content
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n")
    .trim();
  return text || undefined;
}

/** The MCP client on the official SDK, over pooled sessions. */
export class SdkMcpClient implements McpClientPort {
  constructor(readonly pool: McpSessionPool) {}

  private async run<T>(config: McpConnectionConfig, fn: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await this.pool.withSession(config, (session) => fn(session.client));
    } catch (error) {
      throw describeMcpFailure(error, config);
    }
  }

  async listCapabilities(config: McpConnectionConfig) {
    const options = { timeout: config.timeoutMs };
    return this.run(config, async (client) => {
      const capabilities = client.getServerCapabilities() ?? {};
      const [tools, resources, prompts] = await Promise.all([
        capabilities.tools
          ? collectPages<Omit<McpTool, "integrationId">>(async (cursor) => {
              const page = await client.listTools(cursor ? { cursor } : {}, options);
              return {
                nextCursor: page.nextCursor,
                items: page.tools.map((tool) => ({
                  name: tool.name,
                  title: tool.title ?? tool.annotations?.title,
                  description: tool.description,
                  inputSchema: tool.inputSchema as Record<string, unknown>,
                })),
              };
            })
          : [],
        capabilities.resources
          ? collectPages<Omit<McpResource, "integrationId">>(async (cursor) => {
              const page = await client.listResources(cursor ? { cursor } : {}, options);
              return {
                nextCursor: page.nextCursor,
                items: page.resources.map((resource) => ({
                  uri: resource.uri,
                  name: resource.name,
                  description: resource.description,
                  mimeType: resource.mimeType,
                })),
              };
            })
          : [],
        capabilities.prompts
          ? collectPages<Omit<McpPrompt, "integrationId">>(async (cursor) => {
              const page = await client.listPrompts(cursor ? { cursor } : {}, options);
              return {
                nextCursor: page.nextCursor,
                items: page.prompts.map((prompt) => ({
                  name: prompt.name,
                  description: prompt.description,
                  arguments: prompt.arguments ?? [],
                })),
              };
            })
          : [],
      ]);
      return { tools, resources, prompts };
    });
  }

  async executeTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolExecutionResult> {
    const result = await this.run(config, (client) =>
      client.callTool({ name, arguments: args }, undefined, { timeout: config.timeoutMs }),
    );
    const content = (Array.isArray(result.content) ? result.content : []) as McpContent[];
    const structuredContent = result.structuredContent as Record<string, unknown> | undefined;
    if (result.isError) {
      return {
        isError: true,
        content,
        structuredContent,
        errorMessage: textOf(content) ?? "Tool execution failed",
      };
    }
    return { isError: false, content, ...(structuredContent ? { structuredContent } : {}) };
  }

  async readResource(config: McpConnectionConfig, uri: string): Promise<ResourceReadResult> {
    const result = await this.run(config, (client) =>
      client.readResource({ uri }, { timeout: config.timeoutMs }),
    );
    return {
      contents: result.contents.map((item) => ({
        uri: item.uri,
        mimeType: item.mimeType,
        ...("text" in item && typeof item.text === "string" ? { text: item.text } : {}),
        ...("blob" in item && typeof item.blob === "string" ? { blob: item.blob } : {}),
      })),
    };
  }

  listResourceTemplates(config: McpConnectionConfig): Promise<McpResourceTemplate[]> {
    return this.run(config, async (client) => {
      if (!client.getServerCapabilities()?.resources) return [];
      return collectPages<McpResourceTemplate>(async (cursor) => {
        const page = await client.listResourceTemplates(cursor ? { cursor } : {}, {
          timeout: config.timeoutMs,
        });
        return {
          items: page.resourceTemplates.map(({ uriTemplate, name, description, mimeType }) => ({
            uriTemplate,
            name,
            description,
            mimeType,
          })),
          nextCursor: page.nextCursor,
        };
      });
    });
  }

  async getPrompt(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, string>,
  ): Promise<PromptGetResult> {
    const result = await this.run(config, (client) =>
      client.getPrompt({ name, arguments: args }, { timeout: config.timeoutMs }),
    );
    return {
      description: result.description,
      messages: result.messages.map((message) => ({
        role: message.role,
        content: message.content as McpContent,
      })),
    };
  }
}
