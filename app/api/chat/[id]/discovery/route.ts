import { z } from "zod";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { getConversation } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ refresh: z.boolean().default(false) }).strict();

/**
 * Conversation start (or "Refresh integrations"): discovers the agent's integrations within the discovery
 * budget and keeps the result with the conversation. A route rather than a server action, since the browser
 * runs server actions one at a time and a slow discovery must not hold up renaming or deleting.
 */
export const POST = apiRoute<{ id: string }>("POST /api/chat/[id]/discovery", async (request, { params }) => {
  const ctx = await requireApiContext();
  const { refresh } = parseInput(bodySchema, await readJsonBody(request));
  const db = getDb();
  const conversation = await getConversation(db, ctx, (await params).id);
  if (refresh || !conversation.discovery) await prepareConversation(db, ctx, conversation, { refresh });
  return Response.json({ ok: true });
});
