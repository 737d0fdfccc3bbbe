import { createHash, randomUUID } from "node:crypto";
import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from "ai";
import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { authSecret } from "@/lib/auth/secret";
import { getConversation, saveMessages } from "@/lib/chat/conversations";
import { chatModel } from "@/lib/chat/model";
import { describeModelError } from "@/lib/chat/model-errors";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { attachmentForModel } from "@/lib/chat/resource-attachments";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { logger } from "@/lib/logger";
import { parseInput } from "@/lib/validation";
import { chatRequestSchema } from "./schema";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

const MAX_STEPS = 8;

/** One turn of a conversation: the AI SDK's multi-step tool loop over the conversation's tools, streamed. */
export const POST = apiRoute("POST /api/chat", async (request) => {
  const ctx = await requireApiContext();
  const body = parseInput(chatRequestSchema, await readJsonBody(request, 4 * 1024 * 1024));
  const db = getDb();
  const conversation = await getConversation(db, ctx, body.id);
  const { agent, active, capabilities } = await prepareConversation(db, ctx, conversation, {
    refresh: body.refresh,
  });
  const messages = body.messages as unknown as UIMessage[];
  const { model, name, baseURL } = chatModel(agent.model);
  const result = streamText({
    model,
    system: agent.instructions || undefined,
    // Every discovered tool, so results of tools since switched off are still cut to the budget.
    messages: await convertToModelMessages(messages, {
      tools: capabilities.tools,
      ignoreIncompleteToolCalls: true,
      convertDataPart: (part) => (part.type === "data-resource" ? attachmentForModel(part.data) : undefined),
    }),
    tools: active.tools,
    // Approvals come back from the browser; signing them keeps a client from approving a call it never saw.
    experimental_toolApprovalSecret: createHash("sha256").update(`tool-approval:${authSecret()}`).digest(),
    stopWhen: stepCountIs(MAX_STEPS),
    abortSignal: request.signal,
    onError: ({ error }) =>
      logger.warn("chat stream failed", { conversationId: conversation.id, err: error }),
  });
  return result.toUIMessageStreamResponse({
    originalMessages: messages,
    generateMessageId: () => randomUUID(),
    onFinish: async ({ messages: finished }) => {
      await saveMessages(db, conversation, finished);
    },
    onError: (error) => describeModelError(error, { name, baseURL }),
  });
});
