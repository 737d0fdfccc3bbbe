import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as answerRoute } from "@/app/api/chat/[id]/answers/[questionId]/route";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { chatTurn } from "@/lib/chat/chat-turn";
import { createConversation, getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { testIntegration } from "@/lib/mcp/integrations/test-connection";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a, b] = (await registerOwners(handle.db, "Quinn", "Rex")) as [UserContext, UserContext];
  // The real Everything server, which asks its client for input and reports progress.
  const everything = await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" });
  expect((await testIntegration(handle.db, a, everything.id)).ok).toBe(true);
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  useDatabase(undefined);
  await handle?.close();
});

/** One offline turn that runs the tool, its UI message chunks read as they come. */
async function turn(text: string) {
  const agent = await ensureDefaultAgent(handle.db, a.orgId);
  const created = await createConversation(handle.db, a, agent.id);
  await prepareConversation(handle.db, a, created);
  const conversation = await getConversation(handle.db, a, created.id);
  const response = await chatTurn(handle.db, a, {
    id: conversation.id,
    message: { id: "m1", role: "user", parts: [{ type: "text", text }] },
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const chunks: { type: string; data?: Record<string, unknown>; output?: unknown }[] = [];
  let buffered = "";
  /** Reads until a chunk matches (or the turn ends), and returns it. */
  const until = async (match: (chunk: (typeof chunks)[number]) => boolean) => {
    for (;;) {
      const found = chunks.find(match);
      if (found) return found;
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines)
        if (line.startsWith("data: {")) chunks.push(JSON.parse(line.slice(6)) as (typeof chunks)[number]);
    }
  };
  return { conversationId: conversation.id, chunks, until };
}

const answer = (conversationId: string, questionId: string, body: unknown) =>
  answerRoute(
    new Request(`http://localhost:3000/api/chat/${conversationId}/answers/${questionId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: conversationId, questionId }) },
  );

describe("a tool's MCP server asking in the chat", () => {
  it("shows the question as a form, and the call goes on with the person's answer", async () => {
    session.ctx = a;
    const { conversationId, until } = await turn("/call everything_trigger-elicitation-request {}");
    const question = await until((chunk) => chunk.type === "data-tool-question");
    expect(question?.data).toMatchObject({
      message: expect.stringMatching(/provide inputs/),
      requestedSchema: { type: "object", required: ["name"] },
    });
    const questionId = question?.data?.id as string;

    // Someone else's answer, and a malformed one, are refused and change nothing.
    session.ctx = b;
    expect(
      (await answer(conversationId, questionId, { action: "accept", content: { name: "Rex" } })).status,
    ).toBe(404);
    session.ctx = a;
    const bad = await answer(conversationId, questionId, {
      action: "accept",
      content: { name: { nested: 1 } },
    });
    expect(bad.status).toBe(400);

    expect(
      (await answer(conversationId, questionId, { action: "accept", content: { name: "Quinn" } })).status,
    ).toBe(202);
    const output = await until((chunk) => chunk.type === "tool-output-available");
    expect(JSON.stringify(output)).toContain("- Name: Quinn");
  });

  it("reports a long call's progress as it runs, without keeping it", async () => {
    session.ctx = a;
    const { chunks, until } = await turn(
      '/call everything_trigger-long-running-operation {"duration": 0.6, "steps": 3}',
    );
    await until((chunk) => chunk.type === "finish");
    const progress = chunks.filter((chunk) => chunk.type === "data-tool-progress");
    // The last report reaches the SDK's client with the result over stdio, which it handles first; by then the
    // result says more.
    expect(progress.map((chunk) => chunk.data?.progress).slice(0, 2)).toEqual([1, 2]);
    expect(progress[0]).toMatchObject({ transient: true, data: { total: 3 } });
  });
});
