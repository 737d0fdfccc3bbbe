import { UI_MESSAGE_STREAM_HEADERS } from "ai";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { getConversation } from "@/lib/chat/conversations";
import { replayTurn, runningTurn } from "@/lib/chat/turn-streams";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/**
 * The answer still coming in one of the user's conversations, from its start (a page that reloaded re-attaches
 * to it, as the AI SDK's `resume` asks); 204 when no turn runs.
 */
export const GET = apiRoute<{ id: string }>("GET /api/chat/[id]/stream", async (_request, { params, db }) => {
  const ctx = await requireSignedInUser();
  const conversation = await getConversation(db, ctx, (await params).id);
  const turnId = await runningTurn(db, conversation.id);
  if (!turnId) return new Response(null, { status: 204 });
  return new Response(replayTurn(db, conversation.id, turnId).pipeThrough(new TextEncoderStream()), {
    headers: UI_MESSAGE_STREAM_HEADERS,
  });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
