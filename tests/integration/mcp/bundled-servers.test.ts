import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { deleteIntegration } from "@/lib/mcp/integrations/delete-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { integrationDataFolder, presets } from "@/lib/mcp/presets";
import { mcpUseCases } from "@/lib/mcp/use-cases";
import { invokeTool } from "@/lib/tools/catalog";
import { textOf } from "../gateway-client";
import { registerOwners } from "../org-users";
import { createTestDatabase } from "../test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Bundle")) as [UserContext];
});
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

async function added(presetKey: string) {
  const integration = await createIntegration(handle.db, a, { source: "catalog", presetKey });
  expect((await testIntegration(handle.db, a, integration.id)).ok).toBe(true);
  return integration;
}

const call = (name: string, params: Record<string, unknown>) =>
  invokeTool(handle.db, a, name, params, { surface: "rest" });

describe("the bundled servers", () => {
  it("are every catalog server that runs here: Everything and Memory", () => {
    expect(presets.filter((preset) => preset.bundled).map((preset) => preset.key)).toEqual([
      "everything",
      "memory",
    ]);
  });

  it("Memory writes its knowledge graph in a data folder of the integration's own, and reads it back", async () => {
    const memory = await added("memory");
    const written = await call("memory_create_entities", {
      entities: [{ name: "router-1", entityType: "device", observations: ["in Frankfurt"] }],
    });
    expect(written.isError).toBeFalsy();
    const read = await call("memory_read_graph", {});
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain("in Frankfurt");
    const found = await call("memory_search_nodes", { query: "Frankfurt" });
    expect(textOf(found)).toContain("router-1");

    const file = `${integrationDataFolder(memory.id)}/memory.jsonl`;
    expect(readFileSync(file, "utf8")).toContain("router-1");

    // Another Memory integration keeps a graph of its own.
    const other = await createIntegration(handle.db, a, { source: "catalog", presetKey: "memory" });
    expect((await testIntegration(handle.db, a, other.id)).ok).toBe(true);
    expect(textOf(await call(`${other.slug}_read_graph`, {}))).not.toContain("router-1");

    // Deleting the integration deletes what its server kept.
    await deleteIntegration(handle.db, a, memory.id);
    expect(existsSync(integrationDataFolder(memory.id))).toBe(false);
  });

  it("Everything makes a resource of what it is given (a write) and serves it back (a read)", async () => {
    const everything = await added("everything");
    const text = "Hello from the bundled server test.";
    const made = await call("everything_gzip-file-as-resource", {
      name: "hello.txt.gz",
      data: `data:text/plain;base64,${Buffer.from(text).toString("base64")}`,
      outputType: "resourceLink",
    });
    expect(made.isError).toBeFalsy();
    const link = made.content.find((part) => part.type === "resource_link");
    if (link?.type !== "resource_link") throw new Error("no resource link");
    const read = await mcpUseCases(handle.db).readResource(a, {
      integrationId: everything.id,
      uri: link.uri,
    });
    const content = read.contents[0];
    expect(content && "blob" in content ? content.blob.length : 0).toBeGreaterThan(0);
  });

  it("never shows a caller a folder of this host in a local server's error", async () => {
    const memory = await createIntegration(handle.db, a, { source: "catalog", presetKey: "memory" });
    expect((await call(`${memory.slug}_read_graph`, {})).isError).toBeFalsy();
    // Its folder goes while it runs: the server's own error names the file it could not write.
    rmSync(integrationDataFolder(memory.id), { recursive: true, force: true });
    const result = await call(`${memory.slug}_create_entities`, {
      entities: [{ name: "x", entityType: "y", observations: [] }],
    });
    expect(result.isError).toBe(true);
    const shown = JSON.stringify(result);
    expect(shown).toContain(`<data folder>/mcp-servers/${memory.id}/memory.jsonl`);
    expect(shown).not.toContain(integrationDataFolder(memory.id));
    expect(shown).not.toContain(process.cwd());
  });
});
