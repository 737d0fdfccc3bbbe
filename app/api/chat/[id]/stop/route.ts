import { requireSignedInUser } from "@/lib/auth/request-context";
import { getConversation } from "@/lib/chat/conversations";
import { runningTurn, stopTurn } from "@/lib/chat/turn-streams";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Stops the answer coming in one of the user's conversations, wherever it runs; what came so far is kept. */
export const POST = apiRoute<{ id: string }>("POST /api/chat/[id]/stop", async (_request, { params, db }) => {
  const ctx = await requireSignedInUser();
  const conversation = await getConversation(db, ctx, (await params).id);
  const turnId = await runningTurn(db, conversation.id);
  if (turnId) await stopTurn(db, turnId);
  return Response.json({ stopped: turnId !== undefined });
});

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
