import { POST as chatRoute } from "@/app/api/chat/route";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";
import { startScriptedModel } from "../fixtures/mcp/start-fixture";

type Step = { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { text: string };

/** Starts the scripted OpenAI server and points the chat at it, so a turn asks it and nothing real. */
export async function startChatModel(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const model = await startScriptedModel();
  process.env.OPENAI_BASE_URL = `${model.baseUrl}/v1`;
  process.env.CHAT_MODEL = "scripted-model";
  return model;
}

/** Sets the scripted server's next answers (tests/fixtures/openai/scripted-server.ts says what a step holds). */
export function scriptAnswers(modelUrl: string, steps: unknown[]): Promise<Response> {
  return fetch(`${modelUrl}/__script`, { method: "POST", body: JSON.stringify({ steps }) });
}

/** The requests the scripted server received since its last script, in the shape the test reads. */
export async function modelRequests<Request>(modelUrl: string): Promise<Request[]> {
  return ((await (await fetch(`${modelUrl}/__requests`)).json()) as { requests: Request[] }).requests;
}

/** A new conversation of the organization's default agent, which every chat test talks in. */
export async function newChat(db: Database, ctx: UserContext) {
  const agent = await ensureDefaultAgent(db, ctx.orgId);
  return { agent, conversation: await createConversation(db, ctx, agent.id) };
}

/** A user's text message as the browser sends it. */
export const userText = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });

/** POST /api/chat with `body` as JSON, as the browser sends a turn (the test signs the user in first). */
export function postChatTurn(body: unknown): Promise<Response> {
  return chatRoute(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

/**
 * One chat turn through POST /api/chat in a new conversation of the default agent, the scripted OpenAI server
 * (tests/fixtures/openai/scripted-server.ts) answering with `steps`: the response, to read as the browser would.
 */
export async function scriptedChatTurn(
  db: Database,
  owner: UserContext,
  modelUrl: string,
  steps: Step[],
  text: string,
): Promise<Response> {
  const { conversation } = await newChat(db, owner);
  await scriptAnswers(modelUrl, steps);
  return postChatTurn({ id: conversation.id, message: userText("m1", text) });
}
