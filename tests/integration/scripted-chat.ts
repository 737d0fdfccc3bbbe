import { POST as chatRoute } from "@/app/api/chat/route";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { createConversation } from "@/lib/chat/conversations";

type Step = { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { text: string };

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
  const agent = await ensureDefaultAgent(db, owner.orgId);
  const conversation = await createConversation(db, owner, agent.id);
  await fetch(`${modelUrl}/__script`, { method: "POST", body: JSON.stringify({ steps }) });
  return chatRoute(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: conversation.id,
        message: { id: "m1", role: "user", parts: [{ type: "text", text }] },
      }),
    }),
    { params: Promise.resolve({}) },
  );
}
