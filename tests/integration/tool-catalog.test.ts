import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey, createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { AppError } from "@/lib/errors";
import {
  createKnowledgeNode,
  deleteKnowledgeNode,
  listKnowledgeNodes,
  updateKnowledgeNode,
} from "@/lib/knowledge/nodes";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { setIntegrationEnabled } from "@/lib/mcp/integrations/set-integration-enabled";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { invokeTool, listTools } from "@/lib/tools/catalog";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "A", "B")) as [UserContext, UserContext];
  await createKnowledgeNode(handle.db, a, {
    name: "router-1",
    content: "Edge router in Frankfurt; handles BGP peering.",
    metadata: { site: "fra" },
  });
  await createKnowledgeNode(handle.db, a, {
    name: "db-primary",
    content: "Primary PostgreSQL database, replicated to Dublin.",
  });
  await createKnowledgeNode(handle.db, b, { name: "router-1", content: "B's own router, in Oslo." });
});
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

async function errorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const invoke = (ctx: UserContext, name: string, params: Record<string, unknown>) =>
  invokeTool(db(), ctx, name, params, { surface: "rest" });

describe("node_knowledge_retriever", () => {
  it("returns success, one result per requested node and total_nodes; metadata only when asked", async () => {
    const plain = await invoke(a, "node_knowledge_retriever", { node_names: ["router-1", "missing"] });
    expect(plain.structuredContent).toEqual({
      success: true,
      total_nodes: 2,
      results: [
        { node_name: "router-1", found: true, knowledge: "Edge router in Frankfurt; handles BGP peering." },
        { node_name: "missing", found: false, knowledge: null },
      ],
    });
    const withMeta = await invoke(a, "node_knowledge_retriever", {
      node_names: ["router-1"],
      include_metadata: true,
    });
    expect(withMeta.structuredContent?.results).toEqual([
      expect.objectContaining({ metadata: { site: "fra" } }),
    ]);
  });

  it("answers node_names is required when it is missing or empty", async () => {
    for (const params of [{}, { node_names: [] }, { node_names: "router-1" }]) {
      const error = await errorOf(invoke(a, "node_knowledge_retriever", params));
      expect(error.status).toBe(400);
      expect(error.message).toBe("node_names is required");
    }
    const typed = await errorOf(
      invoke(a, "node_knowledge_retriever", { node_names: ["x"], include_metadata: "yes" }),
    );
    expect(typed.details?.fields).toHaveProperty("include_metadata");
    const extra = await errorOf(invoke(a, "node_knowledge_retriever", { node_names: ["x"], surprise: 1 }));
    expect(extra.status).toBe(400);
  });

  it("reads only the caller's organization", async () => {
    const result = await invoke(b, "node_knowledge_retriever", { node_names: ["router-1", "db-primary"] });
    expect(result.structuredContent?.results).toEqual([
      { node_name: "router-1", found: true, knowledge: "B's own router, in Oslo." },
      { node_name: "db-primary", found: false, knowledge: null },
    ]);
  });
});

describe("knowledge_search", () => {
  it("ranks matches with highlighted snippets, within the organization", async () => {
    const result = await invoke(a, "knowledge_search", { query: "router peering" });
    const hits = result.structuredContent?.results as { name: string; snippet: string }[];
    expect(hits.map((hit) => hit.name)).toEqual(["router-1"]);
    expect(hits[0]?.snippet).toMatch(/<mark>.*<\/mark>/);
    const other = await invoke(b, "knowledge_search", { query: "Frankfurt" });
    expect(other.structuredContent?.results).toEqual([]);
    const error = await errorOf(invoke(a, "knowledge_search", { query: "" }));
    expect(error.status).toBe(400);
  });

  it("follows edits and deletes", async () => {
    const node = await createKnowledgeNode(db(), a, { name: "cache", content: "Redis cluster" });
    await updateKnowledgeNode(db(), a, node.id, { name: "cache", content: "Memcached pool" });
    const hits = async (q: string) =>
      (
        ((await invoke(a, "knowledge_search", { query: q })).structuredContent?.results ?? []) as {
          name: string;
        }[]
      ).map((h) => h.name);
    expect(await hits("memcached")).toEqual(["cache"]);
    expect(await hits("redis")).toEqual([]);
    await deleteKnowledgeNode(db(), a, node.id);
    expect(await hits("memcached")).toEqual([]);
    expect((await errorOf(createKnowledgeNode(db(), a, { name: "router-1", content: "dup" }))).status).toBe(
      409,
    );
    expect((await listKnowledgeNodes(db(), a)).map((n) => n.name)).toEqual(["db-primary", "router-1"]);
  });
});

describe("the catalog", () => {
  it("lists built-ins and integration tools under prefixed names, and routes calls to them", async () => {
    const integration = await createIntegration(db(), a, { source: "catalog", presetKey: "everything" });
    await testIntegration(db(), a, integration.id);
    const names = (await listTools(db(), a)).map((tool) => tool.name);
    expect(names.slice(0, 2)).toEqual(["node_knowledge_retriever", "knowledge_search"]);
    expect(names).toContain("everything_echo");
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    expect((await listTools(db(), b)).map((tool) => tool.name)).not.toContain("everything_echo");

    const echo = await invoke(a, "everything_echo", { message: "via the catalog" });
    expect(echo.content).toEqual([{ type: "text", text: "Echo: via the catalog" }]);
    const bad = await errorOf(invoke(a, "everything_echo", { message: 42 }));
    expect(bad.details?.fields?.message?.[0]).toMatch(/must be string/);
    const missing = await errorOf(invoke(a, "everything_echo", {}));
    expect(missing.details?.fields).toEqual({ message: ["message is required"] });

    expect((await errorOf(invoke(a, "no_such_tool", {}))).message).toBe("unknown tool");
    expect((await errorOf(invoke(b, "everything_echo", { message: "x" }))).message).toBe("unknown tool");

    await setIntegrationEnabled(db(), a, integration.id, false);
    const disabled = await errorOf(invoke(a, "everything_echo", { message: "x" }));
    expect(disabled.status).toBe(403);
    expect((await listTools(db(), a)).map((tool) => tool.name)).not.toContain("everything_echo");
  });
});

describe("API keys", () => {
  it("authenticates a key as its organization, shows it once, stores only its hash, and stops at revocation", async () => {
    const { key, apiKey } = await createApiKey(db(), a, { name: "CI" });
    expect(key).toMatch(/^sb_[A-Za-z0-9]{8}_/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const ctx = await authenticateApiKey(db(), `Bearer ${key}`);
    expect(ctx).toMatchObject({ orgId: a.orgId, apiKeyId: apiKey.id });
    await revokeApiKey(db(), a, apiKey.id);
    expect((await errorOf(authenticateApiKey(db(), `Bearer ${key}`))).status).toBe(401);
    expect((await errorOf(authenticateApiKey(db(), "Bearer nonsense"))).status).toBe(401);
    expect((await errorOf(authenticateApiKey(db(), null))).status).toBe(401);
    expect((await errorOf(revokeApiKey(db(), b, apiKey.id))).status).toBe(404);
  });
});
