import { requireSignedInUser } from "@/lib/auth/request-context";
import { getConversation } from "@/lib/chat/conversations";
import { toolAnswerSchema } from "@/lib/chat/tool-relay-schema";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { deliverAnswer, MAX_ANSWER_BYTES } from "@/lib/mcp/relay/pending-answers";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/**
 * The answer to a question a tool's MCP server asked in the chat (a form, or declined, or dismissed), by the
 * person whose conversation it is. It reaches the call waiting for it on whichever instance runs the turn.
 */
export const POST = apiRoute<{ id: string; questionId: string }>(
  "POST /api/chat/[id]/answers/[questionId]",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { id, questionId } = await params;
    const answer = parseInput(toolAnswerSchema, await readJsonBody(request));
    if (JSON.stringify(answer).length > MAX_ANSWER_BYTES)
      throw new AppError("payload_too_large:answer", `Keep the answer under ${MAX_ANSWER_BYTES} characters.`);
    await getConversation(db, ctx, id);
    await deliverAnswer(db, questionId, ctx.userId, answer);
    return Response.json({ ok: true }, { status: 202 });
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
