import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type Progress,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { benchEnvironment, type RunningApp, startApp } from "../../bench/next-app";
import { type BenchDatabase, createBenchDatabase } from "../../bench/postgres";
import { addIntegration, createBenchApiKeys, createBenchOrganization } from "../../bench/seed";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";

// Two instances of the built app on one PostgreSQL database, and the SDK's client sending each request to the one
// a load balancer might pick: a session must work whichever instance gets what.
const PORTS = [3140, 3141] as const;

// A question held back on its stream until the next event would reach the client only with the stream's keep-alive
// (15 s): the call must be over well before.
const PROMPT_DELIVERY_MS = 10_000;

type Pick = (request: { method: string; body: string }) => 0 | 1;

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .map((part) => part.text ?? "")
    .join("");

test.describe
  .serial("gateway sessions across two instances on one PostgreSQL", () => {
    test.skip(!process.env.DATABASE_URL, "Two instances share a PostgreSQL database: set DATABASE_URL.");
    test.setTimeout(120_000);

    let database: BenchDatabase;
    const apps: RunningApp[] = [];
    const fixtures: RunningFixture[] = [];
    const clients: Client[] = [];
    let key = "";
    let changing: RunningFixture;

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      const env = benchEnvironment();
      database = await createBenchDatabase(process.env.DATABASE_URL as string, "sessions");
      const { ctx } = await createBenchOrganization(database.handle.db, "Sessions");
      const everything = await startEverything("streamableHttp");
      changing = await startFixture("sessions");
      fixtures.push(everything, changing);
      await addIntegration(database.handle.db, ctx, "Everything", everything.url);
      await addIntegration(database.handle.db, ctx, "Changing", changing.url);
      [key] = (await createBenchApiKeys(database.handle.db, ctx)) as [string];
      for (const port of PORTS) apps.push(await startApp({ port, databaseUrl: database.url, env }));
    });

    test.afterAll(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await Promise.all(apps.map((app) => app.stop()));
      await Promise.all(fixtures.map((fixture) => fixture.stop()));
      await database?.drop();
    });

    /** An SDK client whose every request goes to the instance `pick` names (`breakAfter` cuts POST streams). */
    async function connect(
      pick: Pick,
      options: ConstructorParameters<typeof Client>[1] = {},
      breakAfter?: RegExp,
    ) {
      const routed = async (url: string | URL, init?: RequestInit) => {
        const method = init?.method ?? "GET";
        const body = typeof init?.body === "string" ? init.body : "";
        const target = new URL(url);
        target.port = String(PORTS[pick({ method, body })]);
        const response = await fetch(target, init);
        if (!breakAfter || method !== "POST" || !response.body) return response;
        return new Response(cutAfter(response.body, breakAfter), {
          status: response.status,
          headers: response.headers,
        });
      };
      const client = new Client({ name: "two-instances", version: "1.0.0" }, options);
      const transport = new StreamableHTTPClientTransport(new URL(`${apps[0]?.origin}/api/mcp`), {
        fetch: routed,
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
        reconnectionOptions: {
          initialReconnectionDelay: 50,
          maxReconnectionDelay: 500,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 5,
        },
      });
      await client.connect(transport);
      clients.push(client);
      return { client, transport };
    }

    test("a session initialized on one instance is continued on the other", async () => {
      const { client, transport } = await connect(({ body }) => (body.includes('"initialize"') ? 0 : 1));
      expect(transport.sessionId).toBeTruthy();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("everything_echo");
      const result = await client.callTool({ name: "everything_echo", arguments: { message: "across" } });
      expect(textOf(result)).toContain("across");
    });

    test("a long call's progress reaches the client on the other instance's stream", async () => {
      // Calls go to the first instance, whose stream breaks after the first progress notification; the client
      // resumes it (GET with Last-Event-ID) on the second.
      const { client } = await connect(({ method }) => (method === "GET" ? 1 : 0), {}, /"progress":1\b/);
      const progress: Progress[] = [];
      const result = await client.callTool(
        { name: "everything_trigger-long-running-operation", arguments: { duration: 2, steps: 4 } },
        undefined,
        { onprogress: (update) => progress.push(update), timeout: 30_000 },
      );
      expect(textOf(result)).toMatch(/completed/i);
      expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    });

    // The client's answers (and cancellations) go to the instance that is not running the call.
    const answersElsewhere: Pick = ({ body }) =>
      /"method"/.test(body) && !/notifications\/cancelled/.test(body) ? 0 : 1;

    test("an elicitation from the upstream server is answered by the client through the other instance", async () => {
      const { client } = await connect(answersElsewhere, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({
        action: "accept",
        content: { name: "Grace Hopper" },
      }));
      const result = await client.callTool(
        { name: "everything_trigger-elicitation-request", arguments: {} },
        undefined,
        { timeout: PROMPT_DELIVERY_MS },
      );
      expect(textOf(result)).toContain("- Name: Grace Hopper");
    });

    test("a sampling request from the upstream server is answered by the client through the other instance", async () => {
      const { client } = await connect(answersElsewhere, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: "assistant",
        model: "two-instance-model",
        content: { type: "text", text: "sampled across instances" },
      }));
      const result = await client.callTool(
        { name: "everything_trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } },
        undefined,
        { timeout: PROMPT_DELIVERY_MS },
      );
      expect(textOf(result)).toContain("sampled across instances");
    });

    test("a client's cancellation sent to the other instance reaches the upstream server", async () => {
      const { client } = await connect(answersElsewhere);
      const before = await cancelledCalls();
      const controller = new AbortController();
      const call = client.callTool({ name: "changing_wait_for_cancel", arguments: {} }, undefined, {
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      controller.abort("no longer needed");
      await expect(call).rejects.toThrow();
      await expect.poll(cancelledCalls).toBe(before + 1);
    });

    test("a change to an integration's tools reaches the client's stream on the other instance", async () => {
      const { client } = await connect(({ method }) => (method === "GET" ? 1 : 0));
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      // Give the client's GET stream a moment to open on the second instance.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.callTool({ name: "changing_add_tool", arguments: { name: "across" } });
      await changed;
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("changing_across");
    });

    async function cancelledCalls(): Promise<number> {
      const stats = (await (await fetch(`${changing.baseUrl}/stats`)).json()) as { cancelled: number };
      return stats.cancelled;
    }
  });

/** The stream up to and including the first chunk that matches, then an error, as a dropped connection gives. */
function cutAfter(body: ReadableStream<Uint8Array>, pattern: RegExp): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(value);
      seen += decoder.decode(value, { stream: true });
      if (pattern.test(seen)) {
        await reader.cancel();
        controller.error(new Error("connection lost"));
      }
    },
  });
}
