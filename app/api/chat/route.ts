import { requireSignedInUser } from "@/lib/auth/request-context";
import { chatTurn } from "@/lib/chat/chat-turn";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/**
 * One turn of a conversation; the server keeps the history, the browser sends only what the user did. The turn
 * runs on if the browser goes (GET /api/chat/<id>/stream re-attaches; POST /api/chat/<id>/stop ends it).
 */
export const POST = apiRoute("POST /api/chat", async (request, { db }) => {
  const ctx = await requireSignedInUser();
  return chatTurn(db, ctx, await readJsonBody(request, 4 * 1024 * 1024));
});

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
