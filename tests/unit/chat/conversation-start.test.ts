import { dynamicTool, jsonSchema, type Tool } from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import type { RequestContext } from "@/lib/auth/context";
import { type ConversationStartDeps, discoverForConversation } from "@/lib/chat/conversation-start";
import { createLogger } from "@/lib/logger";
import { McpConnectionError, McpIntegrationDisabledError } from "@/lib/mcp/errors";
import type { CapabilitiesResult, ToolExecutionResult } from "@/lib/mcp/types";

const ctx: RequestContext = { userId: "u1", orgId: "org-1", role: "member", isSuperadmin: false };
const SLACK = "aaaaaaaa-0000-4000-8000-000000000001";
const DOCS = "bbbbbbbb-0000-4000-8000-000000000002";

function capabilities(
  integrationId: string,
  tools: string[],
  extra: Partial<CapabilitiesResult> = {},
): CapabilitiesResult {
  return {
    tools: tools.map((name) => ({
      name,
      description: `${name} tool`,
      inputSchema: { type: "object", properties: {} },
      integrationId,
    })),
    resources: [],
    prompts: [],
    ...extra,
  };
}

let discovered: Record<string, () => Promise<CapabilitiesResult>>;
let discoverCalls: string[];
let executed: { integrationId: string; toolName: string; parameters: Record<string, unknown> }[];
let executeResult: () => Promise<ToolExecutionResult>;
let lines: Record<string, unknown>[];
let deps: ConversationStartDeps;

beforeEach(() => {
  discovered = {};
  discoverCalls = [];
  executed = [];
  executeResult = async () => ({ isError: false, content: [{ type: "text", text: "sent" }] });
  lines = [];
  deps = {
    discover: {
      execute: async (_ctx, { integrationId }) => {
        discoverCalls.push(integrationId);
        const result = discovered[integrationId];
        if (!result) throw new Error(`no fake for ${integrationId}`);
        return result();
      },
    },
    execute: {
      execute: async (_ctx, command) => {
        executed.push(command);
        return executeResult();
      },
    },
    integrationSlugs: async (ids) => new Map(ids.map((id) => [id, id === SLACK ? "slack" : "docs"])),
    logger: createLogger({}, (line) => lines.push(JSON.parse(line)), "debug"),
  };
});

const native: Record<string, Tool> = {
  node_knowledge_retriever: dynamicTool({
    inputSchema: jsonSchema({ type: "object" }),
    execute: async () => ({ ok: true }),
  }),
};

async function run(tool: Tool | undefined, input: unknown) {
  if (!tool?.execute) throw new Error("tool has no execute");
  return tool.execute(input, { toolCallId: "call-1", messages: [] });
}

describe("discovery at conversation start (seed 001)", () => {
  it("discovers capabilities from a single integration", async () => {
    discovered[SLACK] = async () =>
      capabilities(SLACK, ["send_message"], {
        resources: [{ uri: "slack://channels", name: "channels", integrationId: SLACK }],
        prompts: [{ name: "standup", arguments: [], integrationId: SLACK }],
      });
    const result = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK] },
      native,
    );
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "slack_send_message"]);
    expect(result.resources).toHaveLength(1);
    expect(result.prompts).toHaveLength(1);
    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "connected", toolCount: 1, resourceCount: 1, promptCount: 1 },
    ]);
  });

  it("discovers several integrations in parallel", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = (integrationId: string, tools: string[]) => async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return capabilities(integrationId, tools);
    };
    discovered[SLACK] = slow(SLACK, ["send_message"]);
    discovered[DOCS] = slow(DOCS, ["search"]);
    const result = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK, DOCS] },
      {},
    );
    expect(maxInFlight).toBe(2);
    expect(Object.keys(result.tools).sort()).toEqual(["docs_search", "slack_send_message"]);
  });

  it("continues when one integration fails, reporting which and why", async () => {
    discovered[SLACK] = async () => {
      throw new McpConnectionError(SLACK, "The MCP server did not answer within 5 s.");
    };
    discovered[DOCS] = async () => capabilities(DOCS, ["search"]);
    const result = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK, DOCS] },
      native,
    );
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "docs_search"]);
    expect(result.integrations[0]).toEqual({
      integrationId: SLACK,
      status: "failed",
      errorType: "unavailable:mcp_connection",
      message: "The MCP server did not answer within 5 s.",
    });
  });

  it("continues when every integration fails", async () => {
    discovered[SLACK] = async () => {
      throw new McpIntegrationDisabledError(SLACK);
    };
    discovered[DOCS] = async () => {
      throw new TypeError("boom");
    };
    const result = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK, DOCS] },
      native,
    );
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever"]);
    expect(result.integrations.map((i) => i.status)).toEqual(["failed", "failed"]);
  });

  it("skips discovery for an agent with no integrations, or an empty list", async () => {
    for (const agent of [
      null,
      { id: "a" },
      { id: "a", mcpIntegrationIds: null },
      { id: "a", mcpIntegrationIds: [] },
    ]) {
      const result = await discoverForConversation(deps, ctx, agent, native);
      expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever"]);
      expect(result.integrations).toEqual([]);
    }
    expect(discoverCalls).toEqual([]);
  });

  it("turns MCP tools into AI SDK tools that call the integration and return failures as results", async () => {
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    const { tools, mcpToolOrigins } = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK] },
      {},
    );
    expect(mcpToolOrigins).toEqual({
      slack_send_message: { integrationId: SLACK, toolName: "send_message" },
    });
    expect(tools.slack_send_message?.description).toBe("send_message tool");
    expect(await run(tools.slack_send_message, { channel: "#ops" })).toEqual({
      isError: false,
      content: [{ type: "text", text: "sent" }],
    });
    expect(executed).toEqual([
      { integrationId: SLACK, toolName: "send_message", parameters: { channel: "#ops" } },
    ]);

    executeResult = async () => {
      throw new McpIntegrationDisabledError(SLACK);
    };
    expect(await run(tools.slack_send_message, {})).toMatchObject({
      isError: true,
      errorMessage: expect.stringMatching(/disabled/),
    });
  });

  it("prefixes MCP tool names with the integration's slug", async () => {
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message", "list.channels"]);
    const result = await discoverForConversation(deps, ctx, { id: "agent", mcpIntegrationIds: [SLACK] }, {});
    expect(Object.keys(result.tools)).toEqual(["slack_send_message", "slack_list_channels"]);
  });

  it("merges MCP tools with native tools without duplicates, native first", async () => {
    deps.integrationSlugs = async () => new Map([[SLACK, "node_knowledge"]]);
    discovered[SLACK] = async () => capabilities(SLACK, ["retriever", "other"]);
    const result = await discoverForConversation(
      deps,
      ctx,
      { id: "agent", mcpIntegrationIds: [SLACK] },
      native,
    );
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "node_knowledge_other"]);
    expect(result.tools.node_knowledge_retriever).toBe(native.node_knowledge_retriever);
  });

  it("logs the start, each failure and the outcome with ids and counts", async () => {
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    discovered[DOCS] = async () => {
      throw new Error("nope");
    };
    await discoverForConversation(deps, ctx, { id: "agent", mcpIntegrationIds: [SLACK, DOCS] }, {});
    expect(lines[0]).toMatchObject({
      msg: "Discovering MCP capabilities",
      integrationCount: 2,
      integrationIds: [SLACK, DOCS],
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "MCP discovery failed for integration",
        integrationId: DOCS,
        errorType: "Error",
        error: "nope",
      }),
    );
    expect(lines.at(-1)).toMatchObject({
      msg: "MCP discovery finished",
      succeeded: 1,
      failed: 1,
      toolCount: 1,
    });
  });
});
