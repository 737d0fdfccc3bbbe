import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as exportPost, GET as exportRoute } from "@/app/api/chat/[id]/export/route";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { appendMessages, createConversation, renameConversation } from "@/lib/chat/conversations";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const signedIn = vi.hoisted(() => ({ ctx: undefined as UserContext | undefined }));
// The export's user is whoever the test signs in.
vi.mock("@/lib/auth/request-context", () => ({
  getUserContext: async () => null,
  requireSignedInUser: async () => signedIn.ctx,
}));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let other: UserContext;
let conversationId: string;

const messages: UIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "What is the weather in Oslo?" }] },
  {
    id: "a1",
    role: "assistant",
    metadata: { model: "scripted-large", inputTokens: 120, outputTokens: 30 },
    parts: [
      {
        type: "tool-weather_forecast",
        toolCallId: "c1",
        state: "output-available",
        input: { city: "Oslo" },
        output: { text: "Rain, with ``` fences ``` inside" },
      },
      {
        type: "tool-weather_alerts",
        toolCallId: "c2",
        state: "output-error",
        input: { city: "Oslo" },
        errorText: "The server did not answer.",
      },
      { type: "text", text: "It rains in Oslo." },
    ],
  },
];

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [owner, other] = (await registerOwners(handle.db, "Ola", "Odo")) as [UserContext, UserContext];
  const agent = await ensureDefaultAgent(handle.db, owner.orgId);
  const conversation = await createConversation(handle.db, owner, agent.id);
  await appendMessages(handle.db, conversation, messages);
  await renameConversation(handle.db, owner, conversation.id, "Weather: Oslo / Bergen");
  conversationId = conversation.id;
}, 60_000);
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

function download(ctx: UserContext, id: string, query = "") {
  signedIn.ctx = ctx;
  return exportRoute(new Request(`http://127.0.0.1/api/chat/${id}/export${query}`) as never, {
    params: Promise.resolve({ id }),
  });
}

describe("exporting a conversation", () => {
  it("downloads it as Markdown: each message under its speaker, the tools' inputs and outcomes, the tokens", async () => {
    const response = await download(owner, conversationId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="weather-oslo-bergen.md"');
    const text = await response.text();
    expect(text).toMatch(/^# Weather: Oslo \/ Bergen\n/);
    expect(text).toContain("Tokens: 120 in, 30 out.");
    expect(text).toContain("## You\n\nWhat is the weather in Oslo?");
    expect(text).toContain("## Assistant (scripted-large, 120 in, 30 out)");
    expect(text).toContain("**Tool `weather_forecast`**");
    // The result's own fences cannot close the block they sit in.
    expect(text).toContain('````json\n{\n  "text": "Rain, with ``` fences ``` inside"\n}\n````');
    expect(text).toContain("**Tool `weather_alerts`**");
    expect(text).toContain("Failed: The server did not answer.");
    expect(text.trimEnd().endsWith("It rains in Oslo.")).toBe(true);
  });

  it("downloads it as JSON with the messages as stored", async () => {
    const response = await download(owner, conversationId, "?format=json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="weather-oslo-bergen.json"',
    );
    const body = (await response.json()) as { title: string; tokens: unknown; messages: UIMessage[] };
    expect(body.title).toBe("Weather: Oslo / Bergen");
    expect(body.tokens).toEqual({ inputTokens: 120, outputTokens: 30 });
    expect(body.messages).toEqual(messages);
  });

  it("refuses an unknown format with 400, and another person's or an unknown conversation with 404", async () => {
    const bad = await download(owner, conversationId, "?format=pdf");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('format is "markdown" or "json".');
    expect((await download(other, conversationId)).status).toBe(404);
    expect((await download(owner, "not-a-uuid")).status).toBe(404);
  });

  it("answers a method it does not serve with 405 and Allow", async () => {
    const response = await exportPost(new Request(`http://127.0.0.1/api/chat/${conversationId}/export`));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
