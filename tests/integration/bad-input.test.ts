import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/(app)/admin/export/route";
import AdminPage from "@/app/(app)/admin/page";
import UsersPage from "@/app/(app)/admin/users/page";
import { POST as invokeRoute } from "@/app/api/mcp/invoke/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { rangeOf } from "@/lib/usage/dashboard";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// Pages and the export read the signed-in user through next-auth, which needs Next's runtime: stand in for it.
const session = vi.hoisted(() => ({ ctx: null as UserContext | null }));
vi.mock("@/lib/auth/request-context", async () => {
  const { getDb } = await import("@/db/client");
  return {
    getUserContext: async () => session.ctx,
    requireSignedInUser: async () => session.ctx,
    requireSignedInPage: async () => ({ db: getDb(), ctx: session.ctx }),
  };
});

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let key: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Ines")) as [UserContext];
  const everything = await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" });
  expect((await testIntegration(handle.db, a, everything.id)).ok).toBe(true);
  key = (await createApiKey(handle.db, a, { name: "fuzz" })).key;
}, 90_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

/** POST /api/mcp/invoke with a raw body. */
async function invoke(body: string) {
  const response = await invokeRoute(
    new Request("http://localhost:3000/api/mcp/invoke", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: (await response.json()) as { error: string } };
}

describe("the REST API answers bad input with a 4xx and a message", () => {
  it.each([
    ["a NUL in the tool name", JSON.stringify({ tool_name: "knowledge\u0000search", params: {} })],
    [
      "a NUL in a search query",
      JSON.stringify({ tool_name: "knowledge_search", params: { query: "a\u0000b" } }),
    ],
    [
      "a NUL in a node name",
      JSON.stringify({ tool_name: "node_knowledge_retriever", params: { node_names: ["a\u0000"] } }),
    ],
    [
      "a NUL in an integration tool's argument",
      JSON.stringify({ tool_name: "everything_echo", params: { message: "a\u0000b" } }),
    ],
  ])("%s: 400", async (_label, body) => {
    const { status, body: answer } = await invoke(body);
    expect(status).toBe(400);
    expect(answer.error).toMatch(/NUL character/);
  });

  it("refuses half a surrogate pair, which jsonb cannot store, but takes a whole one", async () => {
    const lone = await invoke('{"tool_name":"knowledge_search","params":{"query":"\\ud800"}}');
    expect(lone.status).toBe(400);
    expect(lone.body.error).toMatch(/surrogate/);
    const pair = await invoke(
      '{"tool_name":"knowledge_search","params":{"query":"\\ud83d\\ude00 \\\\u0000"}}',
    );
    expect(pair.status).toBe(200);
  });

  it("refuses arguments nested too deep for the tool (a stack overflow, a 500, before)", async () => {
    const deep = await invoke(`{"tool_name":"everything_echo","params":{"message":"x","d":${nested(5000)}}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error).toBe("The request body nests arrays and objects more than 64 levels deep.");
    const body = await invoke(nested(200_000));
    expect(body.status).toBe(400);
    expect(body.body.error).toMatch(/more than 64 levels deep/);
    // Nesting well within the bound is an ordinary call.
    const fine = await invoke(`{"tool_name":"everything_echo","params":{"message":"x","d":${nested(50)}}}`);
    expect(fine.status).toBe(200);
  });
});

/** POST /api/mcp with a raw JSON-RPC body. */
async function rpc(body: string) {
  const response = await gatewayFetch(GATEWAY_URL, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}

const toolCall = (name: string, args: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`;

describe("the gateway answers bad input with a JSON-RPC error", () => {
  it("refuses NUL in a tool name or a query (an internal failure, before) with Invalid Request", async () => {
    for (const body of [
      toolCall("knowledge\u0000search", "{}"),
      toolCall("call_tool", JSON.stringify({ name: "knowledge\u0000search", arguments: {} })),
      toolCall("knowledge_search", JSON.stringify({ query: "a\u0000" })),
    ]) {
      const { status, json } = await rpc(body);
      expect(status).toBe(400);
      expect(json.error).toMatchObject({ code: -32600, message: expect.stringMatching(/NUL character/) });
    }
  });

  it("refuses arguments nested too deep (a stack overflow inside the tool call, before)", async () => {
    const { status, json } = await rpc(toolCall("everything_echo", `{"message":"x","d":${nested(5000)}}`));
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: -32600, message: expect.stringMatching(/more than 64 levels/) });
  });

  it("still answers invalid JSON as the SDK does", async () => {
    const { status, json } = await rpc("{not json");
    expect(status).toBe(400);
    expect(json.error.code).toBe(-32700);
  });
});

describe("the dashboard and its export take only the ranges they know", () => {
  it("reads `toString` and other inherited names as an unknown range", () => {
    const now = new Date("2026-06-30T12:00:00Z");
    for (const value of ["toString", "constructor", "__proto__", "hasOwnProperty", ["7d"], undefined])
      expect(rangeOf(value, now)).toEqual({
        key: "24h",
        range: { from: new Date("2026-06-29T12:00:00Z"), to: now },
      });
    expect(rangeOf("7d", now).key).toBe("7d");
  });

  it("renders the dashboard for `?range=toString` and a repeated parameter (a 500, before)", async () => {
    session.ctx = a;
    for (const searchParams of [
      { range: "toString" },
      { range: "valueOf" },
      { range: ["7d", "24h"] },
      { org: [a.orgId] },
    ])
      await expect(AdminPage({ searchParams: Promise.resolve(searchParams) })).resolves.toBeTruthy();
  });

  it("answers an unknown export range with 400 and the ranges there are", async () => {
    session.ctx = a;
    const get = (query: string) =>
      exportRoute(new Request(`http://localhost:3000/admin/export?${query}`), {
        params: Promise.resolve({}),
      });
    for (const query of ["range=toString", "range=__proto__", "range=1y", "range=7d&range=30d"]) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error).toBe("range must be one of 24h, 7d, 30d, 90d.");
    }
    expect((await get("range=7d")).status).toBe(200);
    expect((await get("")).headers.get("content-disposition")).toMatch(/-24h\.csv"$/);
  });

  it("searches users without failing on NUL or a repeated parameter", async () => {
    session.ctx = { ...a, isSuperadmin: true };
    for (const q of ["ines\u0000", ["a", "b"]])
      await expect(UsersPage({ searchParams: Promise.resolve({ q }) })).resolves.toBeTruthy();
  });
});
