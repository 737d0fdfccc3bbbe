import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { onChange, publishChange } from "@/db/change-feed";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { mcpIntegrations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { createCapability, deleteCapability, updateCapability } from "@/lib/capabilities/store";
import { ForbiddenError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { deleteIntegration } from "@/lib/mcp/integrations/delete-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { updateIntegration } from "@/lib/mcp/integrations/update-integration";
import { invokeTool, listTools } from "@/lib/tools/catalog";
import { CATALOG_CHANNEL, publishCatalogChange } from "@/lib/tools/catalog-changes";
import { describeOnPostgres } from "./on-postgres";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

/** An MCP server whose tools are whatever `names` holds when it is asked (stateless: a server per request). */
function changingServer(names: string[]) {
  const http = createServer(async (req, res) => {
    const server = new Server({ name: "changing", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: names.map((name) => ({
        name,
        description: `The ${name} tool`,
        inputSchema: { type: "object" },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: "text", text: `${request.params.name} ran` }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return http;
}

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let upstream: HttpServer;
let url: string;
const tools = ["alpha"];

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Owner")) as [UserContext];
  upstream = changingServer(tools);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await new Promise((resolve) => upstream.close(resolve));
  await handle?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Waits until every catalog change published so far has also come back from the database (notifications arrive
 * in order) and what it made the catalog read again is read, so a row written by hand next is not read by chance.
 */
async function settled() {
  const marker = `settled-${randomUUID()}`;
  let heard = 0;
  const stop = await onChange(handle.db, CATALOG_CHANNEL, (payload) => {
    if (payload === marker) heard++;
  });
  await publishChange(handle.db, CATALOG_CHANNEL, marker);
  await expect.poll(() => heard).toBe(2);
  stop();
  await listTools(handle.db, owner);
}

const namesOn = async (db = handle.db) => (await listTools(db, owner)).map((tool) => tool.name);

describe("the tool catalog kept in memory", () => {
  it("lists what every writer changes, at once", async () => {
    expect(await namesOn()).not.toContain("changing_alpha");

    const added = await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Changing",
      transport: "streamable-http",
      url,
    });
    expect(await namesOn()).toContain("changing_alpha");

    // A rediscovery that finds a new tool lists it; one gone is gone.
    tools.push("beta");
    await testIntegration(handle.db, owner, added.id);
    expect(await namesOn()).toEqual(expect.arrayContaining(["changing_alpha", "changing_beta"]));
    tools.splice(0, 1);
    await testIntegration(handle.db, owner, added.id);
    expect(await namesOn()).not.toContain("changing_alpha");

    await setIntegrationEnabled(handle.db, owner, added.id, false);
    expect(await namesOn()).not.toContain("changing_beta");
    await expect(invokeTool(handle.db, owner, "changing_beta", {}, { surface: "rest" })).rejects.toThrow(
      ForbiddenError,
    );
    await setIntegrationEnabled(handle.db, owner, added.id, true);
    expect(await namesOn()).toContain("changing_beta");

    await updateIntegration(handle.db, owner, added.id, { name: "Renamed" });
    const renamed = (await listTools(handle.db, owner)).find((tool) => tool.name === "changing_beta");
    expect(renamed?.description).toBe("The beta tool (from Renamed)");

    await deleteIntegration(handle.db, owner, added.id);
    expect(await namesOn()).not.toContain("changing_beta");
    await expect(invokeTool(handle.db, owner, "changing_beta", {}, { surface: "rest" })).rejects.toThrow(
      "unknown tool",
    );
  });

  it("lists, runs and forgets capabilities as they are saved", async () => {
    const capability = await createCapability(handle.db, owner, {
      namespace: "kept",
      action: "answer",
      description: "Answers one",
      code: "return { n: 1 };",
    });
    expect(await namesOn()).toContain("mcp__kept__answer");
    expect(
      (await invokeTool(handle.db, owner, "mcp__kept__answer", {}, { surface: "rest" })).structuredContent,
    ).toEqual({ n: 1 });

    await updateCapability(handle.db, owner, capability.id, {
      namespace: "kept",
      action: "answer",
      description: "Answers two",
      code: "return { n: 2 };",
    });
    const listed = (await listTools(handle.db, owner)).find((tool) => tool.name === "mcp__kept__answer");
    expect(listed?.description).toBe("Answers two");
    expect(
      (await invokeTool(handle.db, owner, "mcp__kept__answer", {}, { surface: "rest" })).structuredContent,
    ).toEqual({ n: 2 });

    await deleteCapability(handle.db, owner, capability.id);
    expect(await namesOn()).not.toContain("mcp__kept__answer");
  });

  it("sees a row written behind its back once told, or after 30 seconds at the latest", async () => {
    await settled();
    expect(await namesOn()).not.toContain("hand_manual");
    const [row] = await handle.db
      .insert(mcpIntegrations)
      .values({
        organizationId: owner.orgId,
        name: "Hand",
        slug: "hand",
        transport: "streamable-http",
        url,
        status: "connected",
        lastCheckedAt: new Date(),
        discovered: {
          tools: [{ name: "manual", inputSchema: { type: "object" } }],
          resources: [],
          prompts: [],
        },
      })
      .returning({ id: mcpIntegrations.id });
    expect(await namesOn()).not.toContain("hand_manual");
    await publishCatalogChange(handle.db, owner.orgId);
    expect(await namesOn()).toContain("hand_manual");

    await settled();
    await handle.db
      .update(mcpIntegrations)
      .set({ enabled: false })
      .where(eq(mcpIntegrations.id, row?.id ?? ""));
    expect(await namesOn()).toContain("hand_manual");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    expect(await namesOn()).not.toContain("hand_manual");
  });
});

describeOnPostgres("two instances on one PostgreSQL", () => {
  let other: DatabaseHandle;

  beforeAll(() => {
    const { database } = (handle.db as unknown as { $client: { options: { database: string } } }).$client
      .options;
    const target = new URL(process.env.DATABASE_URL as string);
    target.pathname = `/${database}`;
    other = openPostgres(target.toString(), { max: 2 });
  });
  afterAll(() => other?.close());

  const seenThere = (check: (names: string[]) => boolean) =>
    expect.poll(async () => check(await namesOn(other.db)), { timeout: 5000 }).toBe(true);

  it("drops what the other one kept when this one changes it", async () => {
    // Both instances have the organization's catalog in memory.
    expect(await namesOn()).toEqual(await namesOn(other.db));

    const added = await createIntegration(handle.db, owner, {
      source: "custom",
      name: "Shared",
      transport: "streamable-http",
      url,
    });
    await testIntegration(handle.db, owner, added.id);
    await seenThere((names) => names.includes("shared_beta"));

    tools.push("gamma");
    await testIntegration(handle.db, owner, added.id);
    await seenThere((names) => names.includes("shared_gamma"));

    await setIntegrationEnabled(handle.db, owner, added.id, false);
    await seenThere((names) => !names.includes("shared_gamma"));

    const capability = await createCapability(handle.db, owner, {
      namespace: "shared",
      action: "one",
      code: "return 1;",
    });
    await seenThere((names) => names.includes("mcp__shared__one"));
    await deleteCapability(handle.db, owner, capability.id);
    await seenThere((names) => !names.includes("mcp__shared__one"));
  });
});
