import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { toolAnswerSchema } from "@/lib/chat/tool-relay-schema";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { loadIntegrationForOrg } from "@/lib/mcp/integrations/load-integration";
import { deliverAnswer, MAX_ANSWER_BYTES } from "@/lib/mcp/relay/pending-answers";
import { samplingAnswerSchema } from "@/lib/mcp/relay/sampling-answer-schema";
import { parseInput } from "@/lib/validation";

/** An answer to a question (elicitation) or to a sampling request. */
const runnerAnswerSchema = z.union([toolAnswerSchema, samplingAnswerSchema]);

export const dynamic = "force-dynamic";

/**
 * The answer to a question or sampling request an integration's server sent during a tool runner call, by the
 * person who runs it. It reaches the call waiting for it on whichever instance runs it.
 */
export const POST = apiRoute<{ id: string; questionId: string }>(
  "POST /api/integrations/[id]/run/answers/[questionId]",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { id, questionId } = await params;
    const answer = parseInput(runnerAnswerSchema, await readJsonBody(request));
    if (JSON.stringify(answer).length > MAX_ANSWER_BYTES)
      throw new AppError("payload_too_large:answer", `Keep the answer under ${MAX_ANSWER_BYTES} characters.`);
    await loadIntegrationForOrg(db, ctx, id);
    await deliverAnswer(db, questionId, ctx.userId, answer);
    return Response.json({ ok: true }, { status: 202 });
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
