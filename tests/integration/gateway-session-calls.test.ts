import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { GATEWAY_URL, gatewayFetch, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";

// A tools/call in a session whose client takes no questions is answered without an SDK server
// (lib/gateway/sessions/session-call.ts): as JSON when it is quick, as a resumable event stream when it is not.
let handle: DatabaseHandle;
let owner: UserContext;
let key: string;
let slow: RunningFixture;
const PASS_THROUGH_URL = `${GATEWAY_URL}/integrations/slow`;

const headersOf = (sessionId?: string) => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  ...(sessionId ? { "mcp-session-id": sessionId } : {}),
});

async function openSession(url: string, capabilities: Record<string, unknown> = {}): Promise<string> {
  const initialized = await gatewayFetch(url, {
    method: "POST",
    headers: headersOf(),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await initialized.text();
  const sessionId = initialized.headers.get("mcp-session-id") as string;
  await gatewayFetch(url, {
    method: "POST",
    headers: headersOf(sessionId),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  return sessionId;
}

const post = (url: string, sessionId: string | undefined, id: number, name: string, args: object) =>
  gatewayFetch(url, {
    method: "POST",
    headers: headersOf(sessionId),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
  });

const dataOf = (events: string) =>
  [...events.matchAll(/^data: (.+)$/gm)].map((match) => JSON.parse(match[1] as string));

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner] = (await registerOwners(handle.db, "Ada")) as [UserContext];
  slow = await startFixture("slow");
  await addTestedIntegration(handle.db, owner, { name: "Slow", url: slow.url });
  key = (await createApiKey(handle.db, owner, { name: "session calls" })).key;
}, 60_000);

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await slow?.stop();
  useDatabase(undefined);
  await handle?.close();
});

describe("calls in a session", () => {
  it("answers a quick call as JSON, as the same call without a session is answered", async () => {
    for (const [url, name] of [
      [GATEWAY_URL, "slow_echo"],
      [PASS_THROUGH_URL, "echo"],
    ] as const) {
      const sessionId = await openSession(url);
      // The first call connects to the server (the pass-through, a session of the client's own there).
      await (await post(url, sessionId, 4, name, { message: "hi" })).text();
      const inSession = await post(url, sessionId, 5, name, { message: "hi" });
      expect(inSession.status).toBe(200);
      expect(inSession.headers.get("content-type")).toBe("application/json");
      const lone = await post(url, undefined, 5, name, { message: "hi" });
      expect(await inSession.text()).toBe(await lone.text());
    }
  });

  it("streams the call of a client that may be asked questions, so the questions can reach it", async () => {
    const sessionId = await openSession(GATEWAY_URL, { elicitation: {} });
    const answered = await post(GATEWAY_URL, sessionId, 6, "slow_echo", { message: "hi" });
    expect(answered.headers.get("content-type")).toContain("text/event-stream");
    expect(dataOf(await answered.text()).at(-1)).toMatchObject({
      id: 6,
      result: { content: [{ text: "Echo: hi" }] },
    });
  });

  it("streams a call that outlasts a moment, which a client that loses it resumes with its Last-Event-ID", async () => {
    const sessionId = await openSession(GATEWAY_URL);
    const posted = await post(GATEWAY_URL, sessionId, 7, "slow_sleep", { ms: 1_500 });
    expect(posted.headers.get("content-type")).toContain("text/event-stream");
    const reader = (posted.body as ReadableStream<Uint8Array>).getReader();
    const priming = new TextDecoder().decode((await reader.read()).value);
    const lastId = priming.match(/^id: (.+)$/m)?.[1] as string;
    expect(lastId).toBeTruthy();
    // The client loses the stream before the answer.
    await reader.cancel();

    const resumed = await gatewayFetch(GATEWAY_URL, {
      method: "GET",
      headers: { ...headersOf(sessionId), accept: "text/event-stream", "last-event-id": lastId },
    });
    expect(resumed.status).toBe(200);
    expect(dataOf(await resumed.text())).toEqual([
      expect.objectContaining({
        id: 7,
        result: expect.objectContaining({ content: [{ type: "text", text: "slept 1500" }] }),
      }),
    ]);
  });

  it("cancels a call when the client says so, and sends it no answer", async () => {
    const sessionId = await openSession(GATEWAY_URL);
    const posted = post(GATEWAY_URL, sessionId, 8, "slow_sleep", { ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await gatewayFetch(GATEWAY_URL, {
      method: "POST",
      headers: headersOf(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8 } }),
    });
    expect(cancelled.status).toBe(202);
    const started = Date.now();
    const events = await (await posted).text();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(dataOf(events)).toEqual([]);
  });
});
