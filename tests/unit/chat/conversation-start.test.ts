import type { Tool } from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import type { DiscoveredSnapshot } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import {
  type ConversationStartDeps,
  discoverForConversation,
  type IntegrationInfo,
} from "@/lib/chat/conversation-start";
import { createLogger } from "@/lib/logger";
import { McpConnectionError, McpIntegrationDisabledError } from "@/lib/mcp/errors";
import type { McpFeatures } from "@/lib/mcp/types";
import { errorResult, type ToolDescriptor, type ToolResult } from "@/lib/tools/types";

const ctx: RequestContext = { userId: "u1", orgId: "org-1", role: "member", isSuperadmin: false };
const SLACK = "aaaaaaaa-0000-4000-8000-000000000001";
const DOCS = "bbbbbbbb-0000-4000-8000-000000000002";
const JIRA = "cccccccc-0000-4000-8000-000000000003";

function capabilities(integrationId: string, tools: string[], extra: Partial<McpFeatures> = {}): McpFeatures {
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

function snapshot(tools: string[], extra: Partial<DiscoveredSnapshot> = {}): DiscoveredSnapshot {
  return {
    tools: tools.map((name) => ({
      name,
      description: `${name} tool (last time)`,
      inputSchema: { type: "object", properties: {} },
    })),
    resources: [],
    prompts: [],
    ...extra,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<McpFeatures>(() => {});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let discovered: Record<string, () => Promise<McpFeatures>>;
let discoverCalls: string[];
let known: Record<string, Partial<IntegrationInfo>>;
let calls: { name: string; args: Record<string, unknown> }[];
let callResult: () => Promise<ToolResult>;
let lines: Record<string, unknown>[];
let deps: ConversationStartDeps;

const SLUGS: Record<string, string> = { [SLACK]: "slack", [DOCS]: "docs", [JIRA]: "jira" };
const NAMES: Record<string, string> = { [SLACK]: "Slack", [DOCS]: "Docs", [JIRA]: "Jira" };

beforeEach(() => {
  discovered = {};
  discoverCalls = [];
  known = {};
  calls = [];
  callResult = async () => ({ isError: false, content: [{ type: "text", text: "sent" }] });
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
    integrations: async (ids) =>
      new Map(
        ids.map((id): [string, IntegrationInfo] => [
          id,
          {
            slug: SLUGS[id] ?? "other",
            name: NAMES[id] ?? "Other",
            status: "connected",
            lastCheckedAt: null,
            discovered: null,
            ...known[id],
          },
        ]),
      ),
    call: async (name, args) => {
      calls.push({ name, args });
      return callResult();
    },
    budgetMs: 5_000,
    resultBudget: 1_000,
    logger: createLogger({}, (line) => lines.push(JSON.parse(line)), "debug"),
  };
});

const native: ToolDescriptor[] = [
  {
    name: "node_knowledge_retriever",
    description: "Searches the knowledge base",
    inputSchema: { type: "object", properties: { query: { type: "string" } } },
    source: "builtin",
  },
  {
    name: "mcp__billing__refund",
    description: "Refunds an invoice",
    inputSchema: { type: "object", properties: {} },
    source: "capability",
  },
];

async function run(tool: Tool | undefined, input: unknown) {
  if (!tool?.execute) throw new Error("tool has no execute");
  return tool.execute(input, { toolCallId: "call-1", messages: [] });
}

const agent = (...ids: string[]) => ({ id: "agent", mcpIntegrationIds: ids });

describe("discovery at conversation start (seed 001)", () => {
  it("discovers capabilities from a single integration", async () => {
    discovered[SLACK] = async () =>
      capabilities(SLACK, ["send_message"], {
        resources: [{ uri: "slack://channels", name: "channels", integrationId: SLACK }],
        prompts: [{ name: "standup", arguments: [], integrationId: SLACK }],
      });
    const result = await discoverForConversation(deps, ctx, agent(SLACK), native);
    expect(Object.keys(result.tools)).toEqual([
      "node_knowledge_retriever",
      "slack_send_message",
      "mcp__billing__refund",
    ]);
    expect(result.resources).toEqual([{ uri: "slack://channels", name: "channels", integrationId: SLACK }]);
    expect(result.prompts).toEqual([{ name: "standup", arguments: [], integrationId: SLACK }]);
    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "connected", toolCount: 1, resourceCount: 1, promptCount: 1 },
    ]);
    expect(result.late).toEqual([]);
    expect(discoverCalls).toEqual([SLACK]);
  });

  it("discovers several integrations in parallel", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = (integrationId: string, tools: string[]) => async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await sleep(20);
      inFlight--;
      return capabilities(integrationId, tools);
    };
    discovered[SLACK] = slow(SLACK, ["send_message"]);
    discovered[DOCS] = slow(DOCS, ["search"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), []);
    expect(maxInFlight).toBe(2);
    expect(Object.keys(result.tools).sort()).toEqual(["docs_search", "slack_send_message"]);
    expect(result.integrations.map((i) => [i.integrationId, i.status])).toEqual([
      [SLACK, "connected"],
      [DOCS, "connected"],
    ]);
  });

  it("continues when one integration fails, reporting which and why", async () => {
    discovered[SLACK] = async () => {
      throw new McpConnectionError(SLACK, "The MCP server did not answer within 5 s.");
    };
    discovered[DOCS] = async () => capabilities(DOCS, ["search"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), native);
    expect(Object.keys(result.tools)).toEqual([
      "node_knowledge_retriever",
      "docs_search",
      "mcp__billing__refund",
    ]);
    expect(result.integrations).toEqual([
      {
        integrationId: SLACK,
        status: "failed",
        errorType: "unavailable:mcp_connection",
        message: "The MCP server did not answer within 5 s.",
      },
      { integrationId: DOCS, status: "connected", toolCount: 1, resourceCount: 0, promptCount: 0 },
    ]);
  });

  it("continues when every integration fails", async () => {
    discovered[SLACK] = async () => {
      throw new McpIntegrationDisabledError(SLACK);
    };
    discovered[DOCS] = async () => {
      throw new TypeError("boom");
    };
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), native);
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "mcp__billing__refund"]);
    expect(result.integrations).toEqual([
      expect.objectContaining({ integrationId: SLACK, status: "failed" }),
      { integrationId: DOCS, status: "failed", errorType: "TypeError", message: "boom" },
    ]);
    expect(result.resources).toEqual([]);
    expect(result.prompts).toEqual([]);
    expect(result.late).toEqual([]);
  });

  it("skips discovery for an agent with no integrations, or an empty list", async () => {
    let asked = 0;
    deps.integrations = async () => {
      asked++;
      return new Map();
    };
    for (const noIntegrations of [
      null,
      { id: "a" },
      { id: "a", mcpIntegrationIds: null },
      { id: "a", mcpIntegrationIds: [] },
    ]) {
      const result = await discoverForConversation(deps, ctx, noIntegrations, native);
      expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "mcp__billing__refund"]);
      expect(result.integrations).toEqual([]);
      expect(result.late).toEqual([]);
    }
    expect(discoverCalls).toEqual([]);
    expect(asked).toBe(0);
    expect(
      lines.filter((l) => l.msg === "No MCP integrations assigned to agent, skipping discovery"),
    ).toHaveLength(4);
  });

  it("turns MCP tools into AI SDK tools that call through the catalog and return failures as results", async () => {
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    const { tools, toolOrigins } = await discoverForConversation(deps, ctx, agent(SLACK), native);
    expect(toolOrigins).toEqual({
      node_knowledge_retriever: { source: "builtin" },
      mcp__billing__refund: { source: "capability" },
      slack_send_message: { source: "integration", integrationId: SLACK },
    });
    expect(tools.slack_send_message?.description).toBe("send_message tool (from Slack)");
    expect(tools.slack_send_message?.type).toBe("dynamic");
    expect(await run(tools.slack_send_message, { channel: "#ops" })).toEqual({
      isError: false,
      content: [{ type: "text", text: "sent" }],
    });
    expect(calls).toEqual([{ name: "slack_send_message", args: { channel: "#ops" } }]);

    // The catalog turns refusals and failures into results; the chat tool hands them to the model as they are.
    callResult = async () => errorResult("The integration Slack is disabled.");
    const failed = await run(tools.slack_send_message, {});
    expect(failed).toMatchObject({ isError: true, errorMessage: "The integration Slack is disabled." });
    expect(
      await tools.slack_send_message?.toModelOutput?.({ toolCallId: "call-2", input: {}, output: failed }),
    ).toEqual({ type: "error-text", value: "The integration Slack is disabled." });

    // Native tools go through the same call, by their listed names; arguments that are not an object become {}.
    await run(tools.node_knowledge_retriever, { query: "vacation" });
    await run(tools.mcp__billing__refund, "not an object");
    expect(calls.slice(2)).toEqual([
      { name: "node_knowledge_retriever", args: { query: "vacation" } },
      { name: "mcp__billing__refund", args: {} },
    ]);
  });

  it("prefixes MCP tool names with the integration's slug", async () => {
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message", "list.channels"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK), []);
    expect(Object.keys(result.tools)).toEqual(["slack_send_message", "slack_list_channels"]);
  });

  it("names tools after a short id when the integration's details cannot be read", async () => {
    deps.integrations = async () => {
      throw new Error("database down");
    };
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK), []);
    expect(Object.keys(result.tools)).toEqual(["aaaaaaaa_send_message"]);
    expect(result.integrations).toEqual([
      expect.objectContaining({ integrationId: SLACK, status: "connected" }),
    ]);
  });

  it("merges MCP tools with native tools without duplicates: built-ins first, then integrations, then capabilities", async () => {
    known[SLACK] = { slug: "node_knowledge" };
    discovered[SLACK] = async () => capabilities(SLACK, ["retriever", "other"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK), native);
    expect(Object.keys(result.tools)).toEqual([
      "node_knowledge_retriever",
      "node_knowledge_other",
      "mcp__billing__refund",
    ]);
    expect(result.tools.node_knowledge_retriever?.description).toBe("Searches the knowledge base");
    expect(result.toolOrigins.node_knowledge_retriever).toEqual({ source: "builtin" });
    await run(result.tools.node_knowledge_retriever, { query: "x" });
    expect(calls).toEqual([{ name: "node_knowledge_retriever", args: { query: "x" } }]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "MCP tool skipped: its name is taken",
        integrationId: SLACK,
        tool: "retriever",
        name: "node_knowledge_retriever",
      }),
    );
  });

  it("gives a name a capability and an integration's tool both claim to the integration's tool, as the catalog does", async () => {
    known[SLACK] = { slug: "mcp", name: "Billing server" };
    discovered[SLACK] = async () => capabilities(SLACK, ["_billing__refund"]);
    const result = await discoverForConversation(deps, ctx, agent(SLACK), native);
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "mcp__billing__refund"]);
    expect(result.tools.mcp__billing__refund?.description).toBe(
      "_billing__refund tool (from Billing server)",
    );
    expect(result.toolOrigins.mcp__billing__refund).toEqual({ source: "integration", integrationId: SLACK });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "Capability skipped: its name is taken", name: "mcp__billing__refund" }),
    );
  });

  it("logs the start, each failure and the outcome with ids and counts", async () => {
    discovered[SLACK] = async () =>
      capabilities(SLACK, ["send_message"], {
        resources: [{ uri: "slack://channels", name: "channels", integrationId: SLACK }],
      });
    discovered[DOCS] = async () => {
      throw new Error("nope");
    };
    await discoverForConversation(deps, ctx, agent(SLACK, DOCS), native);
    expect(lines[0]).toMatchObject({
      msg: "Discovering MCP capabilities",
      agentId: "agent",
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
      agentId: "agent",
      succeeded: 1,
      failed: 1,
      late: 0,
      toolCount: 1,
      resourceCount: 1,
      promptCount: 0,
      durationMs: expect.any(Number),
    });
  });
});

describe("the start budget", () => {
  it("does not hold the start beyond the budget for a slow discovery, which stands in with its stored tools", async () => {
    deps.budgetMs = 50;
    const checkedAt = new Date("2025-01-02T03:04:05.000Z");
    known[DOCS] = {
      lastCheckedAt: checkedAt,
      discovered: snapshot(["search"], {
        resources: [{ uri: "docs://readme", name: "readme" }],
        prompts: [{ name: "summarize" }],
      }),
    };
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    discovered[DOCS] = never;
    const started = performance.now();
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), native);
    expect(performance.now() - started).toBeLessThan(2_000);

    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "connected", toolCount: 1, resourceCount: 0, promptCount: 0 },
      {
        integrationId: DOCS,
        status: "stale",
        lastCheckedAt: checkedAt.toISOString(),
        toolCount: 1,
        resourceCount: 1,
        promptCount: 1,
      },
    ]);
    expect(Object.keys(result.tools)).toEqual([
      "node_knowledge_retriever",
      "slack_send_message",
      "docs_search",
      "mcp__billing__refund",
    ]);
    expect(result.tools.docs_search?.description).toBe("search tool (last time) (from Docs)");
    expect(result.toolOrigins.docs_search).toEqual({ source: "integration", integrationId: DOCS });
    expect(result.resources).toEqual([{ uri: "docs://readme", name: "readme", integrationId: DOCS }]);
    expect(result.prompts).toEqual([{ name: "summarize", arguments: [], integrationId: DOCS }]);
    expect(result.late.map((l) => l.integrationId)).toEqual([DOCS]);

    await run(result.tools.docs_search, { q: "x" });
    expect(calls).toEqual([{ name: "docs_search", args: { q: "x" } }]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "MCP discovery is late for integration",
        integrationId: DOCS,
        budgetMs: 50,
        standIn: "last discovery",
      }),
    );
    expect(lines.at(-1)).toMatchObject({
      msg: "MCP discovery finished",
      succeeded: 1,
      late: 1,
      toolCount: 2,
    });
  });

  it("leaves a slow integration with no stored discovery pending, without tools", async () => {
    deps.budgetMs = 50;
    discovered[SLACK] = async () => capabilities(SLACK, ["send_message"]);
    let docsSettled = false;
    discovered[DOCS] = async () => {
      await sleep(400);
      docsSettled = true;
      return capabilities(DOCS, ["search"]);
    };
    const started = performance.now();
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), []);
    expect(docsSettled).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "connected", toolCount: 1, resourceCount: 0, promptCount: 0 },
      { integrationId: DOCS, status: "pending" },
    ]);
    expect(Object.keys(result.tools)).toEqual(["slack_send_message"]);
    expect(result.late.map((l) => l.integrationId)).toEqual([DOCS]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "MCP discovery is late for integration",
        integrationId: DOCS,
        standIn: "none",
      }),
    );
    // It answers after the start: the outcome says so, for the next turn.
    expect(await result.late[0]?.outcome).toEqual({
      integrationId: DOCS,
      status: "connected",
      late: true,
      toolCount: 1,
      resourceCount: 0,
      promptCount: 0,
    });
  });

  it("does not wait for an integration whose health check says failing, even within the budget", async () => {
    deps.budgetMs = 5_000;
    known[SLACK] = { status: "failing", discovered: snapshot(["send_message"]) };
    let slackSettled = false;
    discovered[SLACK] = async () => {
      await sleep(300);
      slackSettled = true;
      return capabilities(SLACK, ["send_message"]);
    };
    const started = performance.now();
    const result = await discoverForConversation(deps, ctx, agent(SLACK), native);
    expect(slackSettled).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    // Asked all the same, but its last discovery does not stand in: it is known to be failing.
    expect(discoverCalls).toEqual([SLACK]);
    expect(result.integrations).toEqual([{ integrationId: SLACK, status: "pending" }]);
    expect(Object.keys(result.tools)).toEqual(["node_knowledge_retriever", "mcp__billing__refund"]);
    expect(result.late.map((l) => l.integrationId)).toEqual([SLACK]);
    expect(await result.late[0]?.outcome).toMatchObject({
      integrationId: SLACK,
      status: "connected",
      late: true,
    });
    expect(slackSettled).toBe(true);
  });

  it("resolves each late outcome to connected or failed, marked late", async () => {
    deps.budgetMs = 30;
    const slack = deferred<McpFeatures>();
    const docs = deferred<McpFeatures>();
    discovered[SLACK] = () => slack.promise;
    discovered[DOCS] = () => docs.promise;
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS), []);
    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "pending" },
      { integrationId: DOCS, status: "pending" },
    ]);
    expect(lines.at(-1)).toMatchObject({ msg: "MCP discovery finished", succeeded: 0, failed: 0, late: 2 });
    const [slackLate, docsLate] = result.late;
    expect(slackLate?.integrationId).toBe(SLACK);
    expect(docsLate?.integrationId).toBe(DOCS);

    slack.resolve(
      capabilities(SLACK, ["send_message", "list_channels"], {
        prompts: [{ name: "standup", arguments: [], integrationId: SLACK }],
      }),
    );
    docs.reject(new McpConnectionError(DOCS, "The MCP server did not answer within 5 s."));
    expect(await slackLate?.outcome).toEqual({
      integrationId: SLACK,
      status: "connected",
      late: true,
      toolCount: 2,
      resourceCount: 0,
      promptCount: 1,
    });
    expect(await docsLate?.outcome).toEqual({
      integrationId: DOCS,
      status: "failed",
      late: true,
      errorType: "unavailable:mcp_connection",
      message: "The MCP server did not answer within 5 s.",
    });
  });

  it("includes a failing-status integration that answers before the others finish", async () => {
    deps.budgetMs = 5_000;
    known[SLACK] = { status: "failing" };
    known[JIRA] = { status: "failing" };
    discovered[SLACK] = async () => {
      await sleep(10);
      return capabilities(SLACK, ["send_message"]);
    };
    discovered[JIRA] = async () => {
      await sleep(10);
      throw new McpConnectionError(JIRA, "Connection refused");
    };
    discovered[DOCS] = async () => {
      await sleep(150);
      return capabilities(DOCS, ["search"]);
    };
    const result = await discoverForConversation(deps, ctx, agent(SLACK, DOCS, JIRA), []);
    expect(result.integrations).toEqual([
      { integrationId: SLACK, status: "connected", toolCount: 1, resourceCount: 0, promptCount: 0 },
      { integrationId: DOCS, status: "connected", toolCount: 1, resourceCount: 0, promptCount: 0 },
      {
        integrationId: JIRA,
        status: "failed",
        errorType: "unavailable:mcp_connection",
        message: "Connection refused",
      },
    ]);
    expect(Object.keys(result.tools)).toEqual(["slack_send_message", "docs_search"]);
    expect(result.late).toEqual([]);
  });

  it("reports a discovery that fails within the budget as failed, not late", async () => {
    deps.budgetMs = 5_000;
    known[DOCS] = { discovered: snapshot(["search"]) };
    discovered[DOCS] = async () => {
      await sleep(20);
      throw new McpConnectionError(DOCS, "Connection refused");
    };
    const result = await discoverForConversation(deps, ctx, agent(DOCS), []);
    expect(result.integrations).toEqual([
      {
        integrationId: DOCS,
        status: "failed",
        errorType: "unavailable:mcp_connection",
        message: "Connection refused",
      },
    ]);
    expect(result.tools).toEqual({});
    expect(result.late).toEqual([]);
  });
});
