import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as restTools } from "@/app/api/mcp/tools/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The REST route is called with API keys; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
const keys: Record<"plain" | "metaOnly" | "noBuiltins", string> = { plain: "", metaOnly: "", noBuiltins: "" };

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Lister")) as [UserContext];
  await createCapability(handle.db, owner, {
    namespace: "listing",
    action: "one",
    description: "A capability with an ordered schema",
    parametersSchema: { type: "object", properties: { z: { type: "string" }, a: { type: "number" } } },
    code: "return 1;",
  });
  keys.plain = (await createApiKey(handle.db, owner, { name: "plain" })).key;
  keys.metaOnly = (await createApiKey(handle.db, owner, { name: "meta", metaToolsOnly: true })).key;
  keys.noBuiltins = (
    await createApiKey(handle.db, owner, { name: "no built-ins", scope: { builtins: false } })
  ).key;
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-03-26",
};

async function post(key: string, body: unknown, headers: Record<string, string> = HEADERS) {
  const response = await gatewayFetch(GATEWAY_URL, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    cacheControl: response.headers.get("cache-control"),
    text: await response.text(),
  };
}

const list = (id: number | string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/list",
  ...(params ? { params } : {}),
});

describe("the gateway's tools/list", () => {
  it("answers a lone tools/list byte for byte as the SDK server answers the same request in a batch", async () => {
    for (const key of Object.values(keys)) {
      for (const request of [
        list(1),
        list("text id"),
        list(7, { _meta: { progressToken: 3 } }),
        list(8, { cursor: "not one of ours" }),
      ]) {
        const lone = await post(key, request);
        // A batch is always the SDK server's to answer; for one request it answers with one response, not a list.
        const batch = await post(key, [request]);
        expect(lone.status).toBe(200);
        expect(batch.status).toBe(200);
        expect(lone.type).toBe(batch.type);
        expect(lone.text).toBe(batch.text);
        // Not gzipped by Next.js: the listing is serialized once, and compressing it would cost more than that.
        expect(lone.cacheControl).toBe("no-transform");
      }
    }
    const names = JSON.parse((await post(keys.plain, list(1))).text).result.tools.map(
      (tool: { name: string }) => tool.name,
    );
    expect(names).toEqual([
      "find_tools",
      "call_tool",
      "node_knowledge_retriever",
      "knowledge_search",
      "mcp__listing__one",
    ]);
  });

  it("leaves what the SDK's transport refuses to it, with its own answers", async () => {
    const notAccepting = await post(keys.plain, list(1), { ...HEADERS, accept: "application/json" });
    expect(notAccepting.status).toBe(406);
    const unknownVersion = await post(keys.plain, list(1), {
      ...HEADERS,
      "mcp-protocol-version": "1999-01-01",
    });
    expect(unknownVersion.status).toBe(400);
    expect(unknownVersion.text).toMatch(/Unsupported protocol version/);
    const notJsonRpc = await post(keys.plain, { ...list(1), extra: true });
    expect(notJsonRpc.status).toBe(400);
    expect(JSON.parse(notJsonRpc.text)).toMatchObject({ error: { code: -32600 } });
  });

  it("lists a capability saved after the last listing", async () => {
    const before = JSON.parse((await post(keys.plain, list(1))).text).result.tools.length;
    await createCapability(handle.db, owner, { namespace: "listing", action: "two", code: "return 2;" });
    const after = JSON.parse((await post(keys.plain, list(1))).text).result.tools;
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1).name).toBe("mcp__listing__two");
  });

  it("lists the same tools over REST, also uncompressed", async () => {
    const gateway = JSON.parse((await post(keys.noBuiltins, list(1))).text).result.tools;
    const response = await restTools(
      new Request("http://localhost:3000/api/mcp/tools", {
        headers: { authorization: `Bearer ${keys.noBuiltins}` },
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.headers.get("cache-control")).toBe("no-transform");
    const rest = (await response.json()).tools;
    expect(rest.map((tool: { name: string }) => tool.name)).toEqual(
      gateway.slice(2).map((tool: { name: string }) => tool.name),
    );
    expect(rest[0]).toEqual({
      name: gateway[2].name,
      description: gateway[2].description,
      parameters: gateway[2].inputSchema,
      source: "capability",
    });
  });
});
