import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability, getCapability, updateCapability } from "@/lib/capabilities/store";
import type { AppError } from "@/lib/errors";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { invokeTool } from "@/lib/tools/catalog";
import { type RunningFixture, startEverything } from "../fixtures/mcp/start-fixture";
import { connectGateway, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: DatabaseHandle & { db: DatabaseHandle["db"] };
let a: UserContext;
let b: UserContext;
let client: Client;
let clientB: Client;
let httpEverything: RunningFixture;

const capability = (namespace: string, action: string, code: string, parametersSchema?: object) => ({
  namespace,
  action,
  description: `${namespace} ${action}`,
  code,
  ...(parametersSchema ? { parametersSchema } : {}),
});

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Cal", "Dee")) as [UserContext, UserContext];
  // Three real MCP servers: Everything and Memory over stdio, and Everything over Streamable HTTP.
  httpEverything = await startEverything("streamableHttp");
  for (const input of [
    { source: "catalog" as const, presetKey: "everything" },
    { source: "catalog" as const, presetKey: "memory" },
    {
      source: "custom" as const,
      name: "Remote",
      transport: "streamable-http" as const,
      url: httpEverything.url,
    },
  ]) {
    const integration = await createIntegration(handle.db, a, input);
    await testIntegration(handle.db, a, integration.id);
  }
  await createCapability(
    handle.db,
    a,
    capability("code", "analyze", "return { file: args.file, lines: args.file.length };", {
      type: "object",
      properties: { file: { type: "string", description: "Path of the file" } },
      required: ["file"],
    }),
  );
  await createCapability(handle.db, a, capability("code", "refactor", "return 'refactored';"));
  await createCapability(
    handle.db,
    a,
    capability(
      "data",
      "transform",
      "const r = await tools.call('everything_echo', { message: args.text }); return { echoed: r };",
      {
        type: "object",
        properties: { text: { type: "string" } },
      },
    ),
  );
  await createCapability(handle.db, a, capability("data", "fail", "throw new Error('bad input');"));
  await createCapability(
    handle.db,
    a,
    capability("loop", "forever", "return await tools.call('mcp__loop__forever', {});"),
  );
  client = await connectGateway((await createApiKey(handle.db, a, { name: "caps" })).key);
  clientB = await connectGateway((await createApiKey(handle.db, b, { name: "other" })).key);
}, 90_000);

afterAll(async () => {
  await client?.close();
  await clientB?.close();
  await getMcpClient().pool.closeAll();
  await httpEverything?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("capabilities through the gateway (seed 004)", () => {
  it("AC1 and AC4: lists capabilities as mcp__<namespace>__<action> with their parameters schema", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ["mcp__code__analyze", "mcp__code__refactor", "mcp__data__transform"])
      expect(byName.has(name)).toBe(true);
    expect(byName.get("mcp__code__analyze")?.inputSchema).toEqual({
      type: "object",
      properties: { file: { type: "string", description: "Path of the file" } },
      required: ["file"],
    });
    expect(byName.get("mcp__code__refactor")?.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("AC2: runs the capability's code in the sandbox and answers in MCP format", async () => {
    const result = await client.callTool({ name: "mcp__code__analyze", arguments: { file: "src/main.ts" } });
    expect(result).toMatchObject({
      content: [{ type: "text", text: '{"file":"src/main.ts","lines":11}' }],
      structuredContent: { file: "src/main.ts", lines: 11 },
    });
    expect(result.isError).toBeFalsy();
    const composed = await client.callTool({ name: "mcp__data__transform", arguments: { text: "composed" } });
    expect(composed.structuredContent).toEqual({ echoed: "Echo: composed" });
    const invalid = await client.callTool({ name: "mcp__code__analyze", arguments: {} });
    expect(invalid).toMatchObject({ isError: true });
    expect(textOf(invalid)).toMatch(/file is required/);
  });

  it("AC3: answers an unknown capability with an error result, and a failing one without crashing", async () => {
    expect(await client.callTool({ name: "mcp__code__missing", arguments: {} })).toEqual({
      isError: true,
      content: [{ type: "text", text: "Capability not found: mcp__code__missing" }],
    });
    expect(await client.callTool({ name: "mcp__data__fail", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Error: bad input" }],
    });
    const loop = await client.callTool({ name: "mcp__loop__forever", arguments: {} });
    expect(loop.isError).toBe(true);
    expect(textOf(loop)).toMatch(/at most 3 levels deep/);
  });

  it("AC5: counts every call and every success", async () => {
    const ctx = a;
    const [row] = await handle.db.query.capabilities.findMany({
      where: (c, { eq }) => eq(c.action, "refactor"),
    });
    if (!row) throw new Error("missing");
    const before = await getCapability(handle.db, ctx, row.id);
    await client.callTool({ name: "mcp__code__refactor", arguments: {} });
    await client.callTool({ name: "mcp__code__refactor", arguments: {} });
    const after = await getCapability(handle.db, ctx, row.id);
    expect(after.usageCount - before.usageCount).toBe(2);
    expect(after.successCount - before.successCount).toBe(2);
    expect(after.lastUsedAt).not.toBeNull();
    expect(after.totalLatencyMs).toBeGreaterThan(before.totalLatencyMs);
    const failing = (
      await handle.db.query.capabilities.findMany({ where: (c, { eq }) => eq(c.action, "fail") })
    )[0];
    expect(failing?.usageCount).toBeGreaterThan(0);
    expect(failing?.successCount).toBe(0);
  });

  it("AC6: one list holds the meta-tools, the three servers' tools, the built-ins and the capabilities", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "find_tools",
        "call_tool",
        "node_knowledge_retriever",
        "everything_echo",
        "memory_create_entities",
        "remote_echo",
        "mcp__code__analyze",
        "mcp__data__transform",
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it("AC7: a new or edited capability shows in the very next tools/list", async () => {
    const created = await createCapability(handle.db, a, capability("fresh", "tool", "return 1;"));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("mcp__fresh__tool");
    await updateCapability(handle.db, a, created.id, {
      ...capability("fresh", "renamed", "return 2;"),
      description: "Now renamed",
    });
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).not.toContain("mcp__fresh__tool");
    expect(tools.find((tool) => tool.name === "mcp__fresh__renamed")?.description).toBe("Now renamed");
    expect(textOf(await client.callTool({ name: "mcp__fresh__renamed", arguments: {} }))).toBe("2");
  });

  it("refuses names that are too long or taken, with a clear message", async () => {
    const error = async (input: object) =>
      createCapability(handle.db, a, input).then(
        () => undefined,
        (e: AppError) => e,
      );
    const long = await error(capability("n".repeat(30), "a".repeat(30), "return 1;"));
    expect(long).toMatchObject({ status: 400, message: expect.stringMatching(/has 67 characters/) });
    expect(await error(capability("code", "analyze", "return 1;"))).toMatchObject({
      status: 409,
      message: "A capability named mcp__code__analyze already exists.",
    });
    expect(await error(capability("Code", "x", "return 1;"))).toMatchObject({ status: 400 });
    expect(
      await error(capability("code", "bad_schema", "return 1;", { type: "object", properties: 5 })),
    ).toMatchObject({
      status: 400,
      message: expect.stringMatching(/parameters schema is not valid/),
    });
    expect(await error(capability("code", "no_code", ""))).toMatchObject({ message: "Enter the code." });
  });

  it("shows another organization nothing, and runs capabilities from REST and chat's catalog too", async () => {
    const names = (await clientB.listTools()).tools.map((tool) => tool.name);
    expect(names.some((name) => name.startsWith("mcp__"))).toBe(false);
    expect(await clientB.callTool({ name: "mcp__code__analyze", arguments: { file: "x" } })).toMatchObject({
      isError: true,
      content: [{ text: "Capability not found: mcp__code__analyze" }],
    });
    const rest = await invokeTool(handle.db, a, "mcp__code__refactor", {}, { surface: "rest" });
    expect(rest).toMatchObject({ isError: false, content: [{ type: "text", text: "refactored" }] });
  });
});
