import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type Progress,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { mcpGatewaySessions } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { endStreams, resetDraining } from "@/lib/http/draining.mjs";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import { GATEWAY_URL, gatewayFetch, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: DatabaseHandle;
let owner: UserContext;
let key: string;
let everything: RunningFixture;
let changing: RunningFixture;
const clients: Client[] = [];

type Capabilities = ConstructorParameters<typeof Client>[1];

async function connect(options: Capabilities = {}) {
  const client = new Client({ name: "sessions-test", version: "1.0.0" }, options);
  const transport = new StreamableHTTPClientTransport(new URL(GATEWAY_URL), {
    fetch: gatewayFetch,
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  // Everything over Streamable HTTP: it reports progress, asks for input and asks for a completion.
  everything = await startEverything("streamableHttp");
  const integration = await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Everything",
    transport: "streamable-http",
    url: everything.url,
  });
  expect((await testIntegration(handle.db, owner, integration.id)).ok).toBe(true);
  // A server whose tool list and resource change, and which counts the calls it saw cancelled.
  changing = await startFixture("sessions");
  const sessions = await createIntegration(handle.db, owner, {
    source: "custom",
    name: "Changing",
    transport: "streamable-http",
    url: changing.url,
  });
  expect((await testIntegration(handle.db, owner, sessions.id)).ok).toBe(true);
  key = (await createApiKey(handle.db, owner, { name: "sessions" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await everything?.stop();
  await changing?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("gateway sessions", () => {
  it("opens a session at initialize, keeps it in the database, and ends it with DELETE", async () => {
    const { client, transport } = await connect({ capabilities: { elicitation: {} } });
    const id = transport.sessionId as string;
    expect(id).toMatch(/^[\w-]{40,}$/);
    const [row] = await handle.db.select().from(mcpGatewaySessions).where(eq(mcpGatewaySessions.id, id));
    expect(row).toMatchObject({ endpoint: "gateway", clientCapabilities: { elicitation: {} } });
    expect((await client.listTools()).tools.length).toBeGreaterThan(2);

    await client.setLoggingLevel("warning");
    const [leveled] = await handle.db.select().from(mcpGatewaySessions).where(eq(mcpGatewaySessions.id, id));
    expect(leveled?.logLevel).toBe("warning");

    await transport.terminateSession();
    const gone = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      error: { message: expect.stringMatching(/Initialize a new one/) },
    });
  });

  it("relays a long call's progress to the client", async () => {
    const { client } = await connect();
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 4 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toMatch(/completed/i);
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    expect(progress[0]).toMatchObject({ total: 4 });
  });

  it("asks the client the upstream server's elicitation and returns its answer", async () => {
    const { client } = await connect({ capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    const result = await client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
    expect(asked).toEqual([expect.stringMatching(/provide inputs/)]);
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
  });

  it("asks the client for the upstream server's sampling and returns the completion", async () => {
    const { client } = await connect({ capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const first = request.params.messages[0]?.content;
      const text = first && "text" in first ? first.text : "";
      return { role: "assistant", model: "test-model", content: { type: "text", text: `echo: ${text}` } };
    });
    const result = await client.callTool({
      name: "everything_trigger-sampling-request",
      arguments: { prompt: "hello", maxTokens: 10 },
    });
    expect(textOf(result)).toContain("echo: Resource trigger-sampling-request context: hello");
    expect(textOf(result)).toContain("test-model");
  });

  it("withdraws its question from the client when the client cancels the call", async () => {
    const { client } = await connect({ capabilities: { elicitation: {} } });
    let asked = () => {};
    const wasAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let withdrawn = () => {};
    const wasWithdrawn = new Promise<void>((resolve) => {
      withdrawn = resolve;
    });
    // A person who never answers; the client aborts the question when the server withdraws it.
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      extra.signal.addEventListener("abort", () => withdrawn());
      asked();
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const call = client.callTool(
      { name: "everything_trigger-elicitation-request", arguments: {} },
      undefined,
      {
        signal: controller.signal,
      },
    );
    await wasAsked;
    controller.abort("never mind");
    await expect(call).rejects.toThrow();
    await wasWithdrawn;
  });

  it("tells the upstream server when the client cannot answer a question", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "everything_trigger-elicitation-request", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cannot take elicitation/);
  });

  it("tells the client when an integration's tools change, on its GET stream", async () => {
    const { client } = await connect();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.callTool({ name: "changing_add_tool", arguments: { name: "fresh" } });
    await changed;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("changing_fresh");
  });

  it("relays updates of a resource the client subscribed to, under the gateway's name for it", async () => {
    const { client } = await connect();
    const uri = "switchboard://changing/fixture://counter";
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params.uri),
      ),
    );
    await client.subscribeResource({ uri });
    await client.callTool({ name: "changing_bump", arguments: {} });
    expect(await updated).toBe(uri);
    await client.unsubscribeResource({ uri });
  });

  it("passes the client's cancellation of a call on to the upstream server", async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "changing_wait_for_cancel", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${changing.baseUrl}/stats`)).json()) as { cancelled: number }).cancelled,
      )
      .toBe(1);
  });

  it("resumes a broken call stream from its Last-Event-ID with what the client missed", async () => {
    const { transport } = await connect();
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": transport.sessionId as string,
      "mcp-protocol-version": "2025-11-25",
    };
    const posted = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "everything_trigger-long-running-operation",
          arguments: { duration: 1, steps: 4 },
          _meta: { progressToken: "p" },
        },
      }),
    });
    expect(posted.headers.get("content-type")).toContain("text/event-stream");
    const reader = (posted.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!/"progress":1\b/.test(seen))
      seen += decoder.decode((await reader.read()).value, { stream: true });
    // The client loses the stream after the first progress notification.
    await reader.cancel();
    const lastId = [...seen.matchAll(/^id: (.+)$/gm)].at(-1)?.[1] as string;

    const resumed = await gatewayFetch(GATEWAY_URL, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "last-event-id": lastId },
    });
    expect(resumed.status).toBe(200);
    const rest = await resumed.text();
    const messages = [...rest.matchAll(/^data: (.+)$/gm)].map((match) => JSON.parse(match[1] as string));
    expect(messages.map((message) => message.params?.progress ?? "answer")).toEqual([2, 3, 4, "answer"]);
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ type: "text" }] } });
  });

  it("ends its session streams when the instance stops, so their clients resume on another", async () => {
    // A session of a client that opens no stream of its own (the SDK's client opens one, which would take over).
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    };
    const initialized = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    const sessionId = initialized.headers.get("mcp-session-id") as string;
    await initialized.body?.cancel();
    const stream = await gatewayFetch(GATEWAY_URL, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "mcp-session-id": sessionId },
    });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    // The client has an event id to resume from.
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^id: .+$/m);
    try {
      endStreams();
      expect((await reader.read()).done).toBe(true);
    } finally {
      resetDraining();
    }
  });

  it("keeps one stream of its own per session: a new GET ends the one before", async () => {
    const { transport } = await connect();
    const open = () =>
      gatewayFetch(GATEWAY_URL, {
        method: "GET",
        headers: {
          authorization: `Bearer ${key}`,
          accept: "text/event-stream",
          "mcp-session-id": transport.sessionId as string,
          "mcp-protocol-version": "2025-11-25",
        },
      });
    const first = await open();
    expect(first.status).toBe(200);
    const second = await open();
    expect(second.status).toBe(200);
    // The first ends (reading it to its end finishes), having carried no message.
    expect(await first.text()).not.toContain("event: message");
    await second.body?.cancel();
  });
});
