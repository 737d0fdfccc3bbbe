import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import type { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as invokeRoute } from "@/app/api/mcp/invoke/route";
import { observeStatements } from "@/db/observe-statements";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { createLogger } from "@/lib/logger";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { startTracing, stopTracing } from "@/lib/tracing/start-tracing";
import { inSpan } from "@/lib/tracing/tracer";
import { type RunningFixture, startFixture, startScriptedModel } from "../fixtures/mcp/start-fixture";
import { connectGateway, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver";
import { scriptedChatTurn } from "./scripted-chat";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// REST and the gateway authenticate with API keys; the chat's user is this test's owner.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

const SERVER = 2;
const CLIENT = 3;

const model = await startScriptedModel();
process.env.OPENAI_BASE_URL = `${model.baseUrl}/v1`;

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let key: string;
let traced: RunningFixture;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let provider: NodeTracerProvider;
let gateway: Client;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  provider = startTracing(new OTLPTraceExporter({ url: receiver.url }));
  observeStatements();
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Noa")) as [UserContext];
  signedIn.ctx = owner;
  key = (await createApiKey(handle.db, owner, { name: "traces" })).key;
  traced = await startFixture("traced");
  const integration = await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Traced",
    transport: "streamable-http",
    url: traced.url,
  });
  expect((await testIntegration(handle.db, owner, integration.id)).ok).toBe(true);
  await createCapability(handle.db, owner, {
    namespace: "relay",
    action: "echo",
    description: "Echoes through the traced server",
    code: "return await tools.call('traced_echo', { message: args.text });",
  });
  gateway = await connectGateway(key);
});

afterAll(async () => {
  await gateway?.close();
  await getMcpClient().pool.closeAll();
  if (provider) await stopTracing(provider);
  await Promise.all([traced?.stop(), model.stop(), receiver?.close()]);
  await handle?.close();
});

async function exported(): Promise<ReceivedSpan[]> {
  await provider.forceFlush();
  return receiver.spans;
}

const traceOf = (spans: ReceivedSpan[], span: ReceivedSpan) =>
  spans.filter((s) => s.traceId === span.traceId);
const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) =>
  spans.find((s) => s.spanId === span.parentSpanId);

function findSpan(
  spans: ReceivedSpan[],
  name: string,
  attributes: Record<string, unknown> = {},
): ReceivedSpan {
  const found = spans.find(
    (s) => s.name === name && Object.entries(attributes).every(([k, v]) => s.attributes[k] === v),
  );
  if (!found)
    throw new Error(`No span ${name} ${JSON.stringify(attributes)} among ${spans.map((s) => s.name)}`);
  return found;
}

/** The names from a span up to its trace's root. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const names: string[] = [];
  for (let at: ReceivedSpan | undefined = span; at; at = parentOf(spans, at)) names.push(at.name);
  return names;
}

describe("traces exported over OTLP/HTTP", () => {
  it("follow a REST invoke from the caller's traceparent through authentication, the catalog and the database", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const response = await invokeRoute(
      new Request("http://localhost/api/mcp/invoke", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          traceparent: `00-${traceId}-${callerSpan}-01`,
        },
        body: JSON.stringify({ tool_name: "node_knowledge_retriever", params: { node_names: ["x"] } }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const spans = (await exported()).filter((s) => s.traceId === traceId);
    const route = findSpan(spans, "POST /api/mcp/invoke");
    expect(route).toMatchObject({ parentSpanId: callerSpan, kind: SERVER });
    expect(route.attributes).toMatchObject({
      "http.route": "/api/mcp/invoke",
      "http.response.status_code": 200,
    });
    expect(route.resource["service.name"]).toBe("switchboard");
    expect(parentOf(spans, findSpan(spans, "auth api_key"))?.name).toBe("POST /api/mcp/invoke");
    const call = findSpan(spans, "tools.call", { "switchboard.tool.name": "node_knowledge_retriever" });
    expect(call.attributes).toMatchObject({
      "switchboard.surface": "rest",
      "switchboard.tool.source": "builtin",
      "switchboard.outcome": "ok",
    });
    expect(parentOf(spans, call)?.spanId).toBe(route.spanId);
    expect(parentOf(spans, findSpan(spans, "catalog.lookup"))?.spanId).toBe(call.spanId);
    const statement = spans.find((s) => s.attributes["db.system.name"] === "postgresql");
    expect(statement?.kind).toBe(CLIENT);
    expect(String(statement?.attributes["db.query.text"])).toMatch(/^(select|insert|update|delete|with)/i);
  });

  it("follow a gateway call of a capability into its sandbox, its tools.call and the upstream server, which gets the trace context", async () => {
    const result = await gateway.callTool({
      name: "mcp__relay__echo",
      arguments: { text: "via capability" },
    });
    expect(textOf(result)).toContain("via capability");
    const all = await exported();
    const outer = findSpan(all, "tools.call", { "switchboard.tool.name": "mcp__relay__echo" });
    const spans = traceOf(all, outer);
    const upstream = findSpan(spans, "mcp tools/call");
    expect(ancestry(spans, upstream)).toEqual([
      "mcp tools/call",
      "tools.call",
      "sandbox.run",
      "tools.call",
      "POST /api/mcp",
    ]);
    expect(upstream.kind).toBe(CLIENT);
    expect(upstream.attributes).toMatchObject({
      "mcp.server.name": "switchboard-fixture",
      "switchboard.mcp.transport": "streamable-http",
      "switchboard.outcome": "ok",
    });
    expect(findSpan(spans, "sandbox.run").attributes).toMatchObject({
      "switchboard.outcome": "ok",
      "switchboard.sandbox.tool_calls": 1,
    });
    const stats = (await (await fetch(`${traced.baseUrl}/stats`)).json()) as {
      calls: { traceparent: string | null; metaTraceparent: string | null }[];
    };
    const expected = `00-${upstream.traceId}-${upstream.spanId}-01`;
    expect(stats.calls.at(-1)).toEqual({ traceparent: expected, metaTraceparent: expected });
  });

  it("follow a chat turn through each model step and each tool call of the loop", async () => {
    const response = await scriptedChatTurn(
      handle.db,
      owner,
      model.baseUrl,
      [{ toolCalls: [{ name: "traced_echo", arguments: { message: "from chat" } }] }, { text: "Done." }],
      "Echo something.",
    );
    expect(await response.text()).toContain("Done.");
    const all = await exported();
    const route = findSpan(all, "POST /api/chat");
    const spans = traceOf(all, route);
    const turn = findSpan(spans, "ai.streamText");
    expect(parentOf(spans, turn)?.spanId).toBe(route.spanId);
    expect(spans.filter((s) => s.name === "ai.streamText.doStream")).toHaveLength(2);
    const call = findSpan(spans, "tools.call", { "switchboard.tool.name": "traced_echo" });
    expect(call.attributes["switchboard.surface"]).toBe("chat");
    expect(ancestry(spans, findSpan(spans, "mcp tools/call"))).toEqual([
      "mcp tools/call",
      "tools.call",
      "ai.toolCall",
      "ai.streamText",
      "POST /api/chat",
    ]);
  });

  it("carry no secret, argument or message in any attribute", async () => {
    const text = JSON.stringify((await exported()).map((s) => [s.attributes, s.resource, s.status]));
    for (const secret of [key, "password noa", "via capability", "from chat", "Echo something."])
      expect(text).not.toContain(secret);
  });

  it("leave their ids in the log lines written inside them", async () => {
    const lines: string[] = [];
    const log = createLogger({}, (line) => lines.push(line), "info");
    const ids = await inSpan("logged", {}, async (span) => {
      log.info("inside");
      return span.spanContext();
    });
    expect(JSON.parse(lines[0] as string)).toMatchObject({ traceId: ids.traceId, spanId: ids.spanId });
  });
});
