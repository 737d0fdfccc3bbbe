import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startEverything, startFixture } from "../fixtures/mcp/start-fixture";
import {
  addIntegrations,
  GATEWAY_URL,
  gatewayFetch,
  passThroughFetch,
  textOf,
  useDatabase,
} from "./gateway-client";
import { registerOwners } from "./org-users";
import { connectRevision, type Revision, type RevisionClient } from "./revision-clients";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let key: string;
const servers: RunningFixture[] = [];
const clients: RevisionClient[] = [];

/**
 * The two endpoints, each with how to reach an integration's features through it: the gateway under its
 * prefixed names, the pass-through under the server's own (one endpoint per integration).
 */
const endpoints = {
  gateway: {
    url: () => GATEWAY_URL,
    fetch: () => gatewayFetch,
    tool: (slug: string, name: string) => `${slug}_${name}`,
    uri: (slug: string, uri: string) => `switchboard://${slug}/${uri}`,
  },
  "pass-through": {
    url: (slug: string) => `http://localhost:3000/api/mcp/integrations/${slug}`,
    fetch: passThroughFetch,
    tool: (_slug: string, name: string) => name,
    uri: (_slug: string, uri: string) => uri,
  },
};

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  const everything = await startEverything("streamableHttp");
  // Lists and a resource that change while clients are connected; the conformance suite's prompts, completed.
  const changing = await startFixture("sessions");
  const suite = await startFixture("conformance");
  // A server that speaks only 2026-07-28: Switchboard reaches it at that revision, whatever its clients speak.
  const modern = await startFixture("conformance-modern");
  servers.push(everything, changing, suite, modern);
  await addIntegrations(handle.db, owner, {
    Everything: everything,
    Changing: changing,
    Suite: suite,
    Modern: modern,
  });
  key = (await createApiKey(handle.db, owner, { name: "revisions" })).key;
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all(servers.map((server) => server.stop()));
  useDatabase(undefined);
  await handle?.close();
});

const answers = {
  elicit: (message: string) =>
    /context/.test(message) ? { context: "tides" } : { name: "Ada Lovelace", check: true },
  sample: (prompt: string) => `echo: ${prompt}`,
  roots: [{ uri: "file:///work/tides", name: "Tides" }],
};

describe.each(["2025-11-25", "2026-07-28"] as Revision[])("a client speaking %s", (revision) => {
  describe.each(Object.keys(endpoints) as (keyof typeof endpoints)[])("through the %s", (kind) => {
    const endpoint = endpoints[kind];
    const connect = async (slug: string) => {
      const client = await connectRevision(revision, endpoint.url(slug), endpoint.fetch(slug), key, answers);
      clients.push(client);
      return client;
    };

    it("lists tools and calls one", async () => {
      const client = await connect("everything");
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain(endpoint.tool("everything", "echo"));
      const echoed = await client.callTool(endpoint.tool("everything", "echo"), { message: "hi" });
      expect(textOf(echoed)).toBe("Echo: hi");
    });

    it("relays a long call's progress", async () => {
      const client = await connect("everything");
      const progress: number[] = [];
      const result = await client.callTool(
        endpoint.tool("everything", "trigger-long-running-operation"),
        { duration: 1, steps: 3 },
        (update) => progress.push(update.progress),
      );
      expect(textOf(result)).toMatch(/completed/i);
      expect(progress).toEqual([1, 2, 3]);
    });

    it("asks the client the upstream server's elicitation and returns its answer", async () => {
      const client = await connect("everything");
      const result = await client.callTool(endpoint.tool("everything", "trigger-elicitation-request"), {});
      expect(textOf(result)).toContain("- Name: Ada Lovelace");
    });

    it("asks the client for the upstream server's sampling and returns the completion", async () => {
      const client = await connect("everything");
      const result = await client.callTool(endpoint.tool("everything", "trigger-sampling-request"), {
        prompt: "hello",
        maxTokens: 10,
      });
      expect(textOf(result)).toContain("echo: Resource trigger-sampling-request context: hello");
    });

    it("calls a tool its server runs only as a task, reporting the task's progress", async () => {
      const client = await connect("everything");
      const listed = (await client.listTools()).find(
        (tool) => tool.name === endpoint.tool("everything", "simulate-research-query"),
      );
      expect(listed).toBeDefined();
      const progress: string[] = [];
      const result = await client.callTool(
        endpoint.tool("everything", "simulate-research-query"),
        { topic: "tides" },
        (update) => progress.push(String(update.message)),
      );
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain("# Research Report: tides");
      expect(progress).toContain("Gathering sources...");
    });

    it("lists and reads resources", async () => {
      const client = await connect("everything");
      const uri = endpoint.uri("everything", "demo://resource/static/document/architecture.md");
      expect((await client.listResources()).map((resource) => resource.uri)).toContain(uri);
      const read = await client.readResource(uri);
      expect(read.contents[0]?.uri).toBe(uri);
      expect(read.contents[0]?.text?.length).toBeGreaterThan(0);
    });

    it("lists and gets prompts, and completes their arguments", async () => {
      const client = await connect("everything");
      const prompt = endpoint.tool("everything", "args-prompt");
      expect((await client.listPrompts()).map((listed) => listed.name)).toContain(prompt);
      const got = await client.getPrompt(prompt, { city: "Porto" });
      expect(got.messages[0]?.content).toEqual({ type: "text", text: "What's weather in Porto?" });
      const suite = await connect("suite");
      const completed = await suite.complete(endpoint.tool("suite", "test_prompt_with_arguments"), {
        name: "arg1",
        value: "par",
      });
      expect(completed).toEqual(["paris", "park", "party"]);
    });

    it("asks the client the upstream server's question before rendering a prompt", async () => {
      const suite = await connect("suite");
      const got = await suite.getPrompt(endpoint.tool("suite", "test_input_required_result_prompt"), {});
      expect(got.messages[0]?.content).toEqual({ type: "text", text: "Use this context: tides" });
    });

    it("tells the client when the tools change, and when a resource it follows is updated", async () => {
      const client = await connect("changing");
      // The fixture adds a tool to the upstream session that asks. A 2025 client's session on the pass-through has
      // an upstream session of its own, whose tools are its server's business: there the change comes from a
      // call without a session, on the integration's shared one, as a change of the whole server would.
      const changer =
        kind === "pass-through" && revision === "2025-11-25"
          ? await connectRevision(
              "2026-07-28",
              endpoint.url("changing"),
              endpoint.fetch("changing"),
              key,
              answers,
            )
          : client;
      if (changer !== client) clients.push(changer);
      const changed = client.toolsChanged();
      const added = `fresh_${revision.replaceAll("-", "")}_${kind === "gateway" ? "g" : "p"}`;
      await changer.callTool(endpoint.tool("changing", "add_tool"), { name: added });
      await changed;
      expect((await client.listTools()).map((tool) => tool.name)).toContain(endpoint.tool("changing", added));
      const uri = endpoint.uri("changing", "fixture://counter");
      const updated = client.resourceUpdated(uri);
      // The listen stream (or the subscription) is open once resourceUpdated has asked for it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.callTool(endpoint.tool("changing", "bump"), {});
      expect(await updated).toBe(uri);
    });

    describe("to a server that speaks only 2026-07-28", () => {
      it("lists its tools and calls one, with the call's progress", async () => {
        const client = await connect("modern");
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toContain(endpoint.tool("modern", "test_simple_text"));
        const said = await client.callTool(endpoint.tool("modern", "test_simple_text"), {});
        expect(textOf(said)).toBe("This is a simple text response for testing.");
        const progress: number[] = [];
        const result = await client.callTool(
          endpoint.tool("modern", "test_tool_with_progress"),
          {},
          (update) => progress.push(update.progress),
        );
        expect(textOf(result)).toBe("Tool with progress executed successfully");
        expect(progress).toEqual(expect.arrayContaining([50, 100]));
      });

      it("asks the client the server's elicitation and sampling questions, and the call goes on with the answers", async () => {
        const client = await connect("modern");
        const named = await client.callTool(
          endpoint.tool("modern", "test_input_required_result_elicitation"),
          {},
        );
        expect(textOf(named)).toBe("Hello, Ada Lovelace!");
        const sampled = await client.callTool(
          endpoint.tool("modern", "test_input_required_result_sampling"),
          {},
        );
        expect(textOf(sampled)).toContain("echo: What is the capital of France?");
        // The server sees this client's capabilities (it takes sampling), so it does not ask.
        const able = await client.callTool(endpoint.tool("modern", "test_missing_capability"), {});
        expect(textOf(able)).toBe("Success");
      });

      it("asks the client for its roots, and the call goes on with them", async () => {
        const client = await connect("modern");
        const rooted = await client.callTool(
          endpoint.tool("modern", "test_input_required_result_list_roots"),
          {},
        );
        expect(textOf(rooted)).toBe("Roots: file:///work/tides");
      });

      it("reads its resources and gets its prompts", async () => {
        const client = await connect("modern");
        const uri = endpoint.uri("modern", "test://static-text");
        expect((await client.listResources()).map((resource) => resource.uri)).toContain(uri);
        const read = await client.readResource(uri);
        expect(read.contents[0]?.text).toBe("This is the content of the static text resource.");
        const got = await client.getPrompt(endpoint.tool("modern", "test_simple_prompt"), {});
        expect(got.messages[0]?.content).toEqual({
          type: "text",
          text: "This is a simple prompt for testing.",
        });
      });
    });
  });
});
