import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

// A small limit, read once when the environment is first parsed (before anything in this file runs).
vi.hoisted(() => {
  process.env.API_RATE_LIMIT_PER_MINUTE = "10";
});

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Bea")) as [UserContext];
});
afterAll(async () => {
  vi.useRealTimers();
  useDatabase(undefined);
  await handle?.close();
});
// The limit counts per calendar minute: each test runs at the start of a minute of its own, so no test
// straddles two windows (only Date is faked; timers stay real).
let minute = 0;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(Date.UTC(2026, 0, 1, 10, minute++, 5)));
});

const newKey = async () => (await createApiKey(handle.db, a, { name: `key ${minute}` })).key;

const search = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "knowledge_search", arguments: { query: `batch ${id}` } },
});

/** POSTs a raw JSON-RPC body to the gateway, as a 2025-03-26 client (which may batch) would. */
async function post(key: string, body: unknown) {
  const response = await gatewayFetch(GATEWAY_URL, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-03-26",
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

const gatewayCalls = async () => (await usageRecordsOf(handle.db, a.orgId, "gateway")).length;

describe("JSON-RPC batches and the gateway's rate limit", () => {
  it("refuses a batch of 100 tool calls over the limit of 10 before any of them runs", async () => {
    const key = await newKey();
    const before = await gatewayCalls();
    const batch = await post(
      key,
      Array.from({ length: 100 }, (_, i) => search(i + 1)),
    );
    expect(batch.status).toBe(429);
    expect(batch.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(batch.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001 } });
    expect(batch.json.error.message).toMatch(
      /Rate limit of 10 requests a minute.*batch counts as one request/,
    );
    expect(await gatewayCalls()).toBe(before);
    // The batch used the minute's budget: a single call after it is refused too.
    expect((await post(key, search(101))).status).toBe(429);
    expect(await gatewayCalls()).toBe(before);
  });

  it("serves a batch within the limit and counts each of its messages", async () => {
    const key = await newKey();
    const before = await gatewayCalls();
    const first = await post(key, [search(1), search(2), search(3), search(4)]);
    expect(first.status).toBe(200);
    expect(first.json.map((answer: { id: number }) => answer.id).sort()).toEqual([1, 2, 3, 4]);
    const second = await post(key, [search(5), search(6), search(7), search(8), search(9), search(10)]);
    expect(second.status).toBe(200);
    expect(second.json).toHaveLength(6);
    expect(await gatewayCalls()).toBe(before + 10);
    // Ten messages in two requests: the eleventh is over the limit.
    expect((await post(key, search(11))).status).toBe(429);
  });

  it("refuses an empty batch and one larger than 100 messages with Invalid Request", async () => {
    const key = await newKey();
    const empty = await post(key, []);
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatchObject({ code: -32600, message: "Invalid Request: the batch is empty." });
    const huge = await post(
      key,
      Array.from({ length: 101 }, (_, i) => search(i)),
    );
    expect(huge.status).toBe(400);
    expect(huge.json.error.code).toBe(-32600);
    expect(huge.json.error.message).toMatch(/at most 100 messages/);
  });
});
