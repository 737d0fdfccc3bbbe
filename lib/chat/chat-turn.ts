import { createHash, randomUUID } from "node:crypto";
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  stepCountIs,
  streamText,
  type UIMessageStreamWriter,
} from "ai";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { authSecret } from "@/lib/auth/secret";
import { finishBeforeExit } from "@/lib/http/draining.mjs";
import { logger } from "@/lib/logger";
import { tracingOn } from "@/lib/tracing/tracer";
import { parseInput } from "@/lib/validation";
import { answerMetadata, finishedAnswer } from "./answer-metadata";
import { askInChat } from "./ask-in-chat";
import { chooseConversationModel, resolveConversationModel } from "./chat-models";
import { getConversation, loadBranches, saveMessages } from "./conversations";
import { fileForModel, filesOfMessages, withFilesRead } from "./file-attachments";
import { fileHandlesNote, type ToolTurnContext } from "./files-for-tools";
import { chatModel, offline } from "./model";
import { describeModelError } from "./model-errors";
import { prepareConversation } from "./prepare-conversation";
import { attachmentForModel, withAttachmentsRead } from "./resource-attachments";
import { modelTakesImages } from "./text-only-models";
import { withToolRelay } from "./tool-relay";
import { forModel, withTurnError } from "./turn-errors";
import { historyForTurn } from "./turn-history";
import { chatTurnRequestSchema } from "./turn-request";
import { beginTurn, recordTurn, stopSignalOf } from "./turn-streams";

const MAX_STEPS = 8;

/**
 * One turn of a conversation: the stored history with what the user just said, the AI SDK's multi-step tool
 * loop over the conversation's tools, streamed as UI message chunks; the turn is stored when it ends.
 */
export async function chatTurn(
  db: Database,
  ctx: UserContext,
  input: unknown,
  options: { signal?: AbortSignal } = {},
): Promise<Response> {
  const { message, model: chosen, ...request } = parseInput(chatTurnRequestSchema, input);
  const conversation = await getConversation(db, ctx, request.id);
  const { agent, active, features } = await prepareConversation(db, ctx, conversation);
  // Checked before anything is stored: a model the organization does not allow is a 400.
  const modelName =
    chosen === undefined || offline()
      ? await resolveConversationModel(db, ctx, conversation, agent.model)
      : await chooseConversationModel(db, ctx, conversation, agent.model, chosen);
  const messages = await historyForTurn(await loadBranches(db, conversation.id), {
    ...request,
    message:
      message &&
      (await withFilesRead(db, ctx, conversation.id, await withAttachmentsRead(db, ctx, active, message))),
  });
  const takesImages = await modelTakesImages(db, ctx, modelName);
  // A tool that takes files gets them by handle: the model is told each file's, and the files' bytes are read.
  const takesFiles = Object.keys(active.tools).some((name) => active.toolOrigins[name]?.takesFiles);
  // Before anything is stored: a file store that does not answer fails the turn with 503, to be tried again.
  const files = await filesOfMessages(db, ctx, conversation.id, messages, {
    takesImages,
    toolsTakeFiles: takesFiles,
  });
  const { model, name, baseURL, offline: offlineMode } = chatModel(modelName);
  // An answer continued after approvals adds this turn's tokens to what it had.
  const earlier = request.approvals ? answerMetadata(messages.at(-1) ?? {}) : undefined;
  let writer: UIMessageStreamWriter | undefined;
  // Progress and questions go to the browser as they come, and are not kept with the messages.
  const tools = withToolRelay(active.tools, {
    progress: (toolCallId, progress) =>
      writer?.write({
        type: "data-tool-progress",
        id: toolCallId,
        data: { toolCallId, ...progress },
        transient: true,
      }),
    elicit: (toolCallId, params, signal) => askInChat(db, ctx, toolCallId, params, signal, writer),
  });
  // The turn runs on when the page goes (a reloaded page re-attaches to it); the Stop endpoint ends it early.
  const turnId = await beginTurn(db, conversation.id);
  // The question is kept at once, so a page reloaded mid-answer shows it above the answer it re-attaches to.
  if (message) await saveMessages(db, conversation, messages);
  const stop = await stopSignalOf(db, turnId);
  const system = [agent.instructions, takesFiles ? fileHandlesNote(files) : undefined].filter(Boolean);
  const result = streamText({
    model,
    system: system.length > 0 ? system.join("\n\n") : undefined,
    experimental_context: { files } satisfies ToolTurnContext,
    // Every discovered tool, so results of tools since switched off are still cut to the budget.
    messages: await convertToModelMessages(forModel(messages), {
      tools: features.tools,
      ignoreIncompleteToolCalls: true,
      convertDataPart: (part) =>
        part.type === "data-resource"
          ? attachmentForModel(part.data)
          : part.type === "data-file"
            ? fileForModel(part.data, files, { name: modelName, takesImages })
            : undefined,
    }),
    tools,
    experimental_toolApprovalSecret: createHash("sha256").update(`tool-approval:${authSecret()}`).digest(),
    stopWhen: stepCountIs(MAX_STEPS),
    abortSignal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
    // A span for the turn, each model step and each tool call; what was said stays out of the traces.
    experimental_telemetry: {
      isEnabled: tracingOn(),
      functionId: "chat-turn",
      recordInputs: false,
      recordOutputs: false,
    },
    onError: ({ error }) =>
      logger.warn("chat stream failed", { conversationId: conversation.id, err: error }),
  });
  let failure: string | undefined;
  const onError = (error: unknown) => {
    const described = describeModelError(error, { name, baseURL });
    // The first failure is the cause; later ones are what it left behind (no output, for instance).
    failure ??= described;
    return described;
  };
  const stream = createUIMessageStream({
    originalMessages: messages,
    generateId: () => randomUUID(),
    execute: ({ writer: turnWriter }) => {
      writer = turnWriter;
      turnWriter.merge(
        result.toUIMessageStream({
          onError,
          // The answer names its model from the start, and its tokens once the model reported them.
          messageMetadata: ({ part }) =>
            offlineMode
              ? undefined
              : part.type === "start"
                ? { model: name }
                : part.type === "finish"
                  ? finishedAnswer(name, part.totalUsage, earlier)
                  : undefined,
        }),
      );
    },
    onError,
    onFinish: async ({ messages: finished }) => {
      // A failed turn is kept with its reason, so a reload still shows it and offers to retry.
      await saveMessages(db, conversation, failure ? withTurnError(finished, failure) : finished);
    },
  });
  return createUIMessageStreamResponse({
    stream,
    // A copy of what the browser reads is kept for any instance to replay; reading it keeps the turn running.
    consumeSseStream: ({ stream: sent }) => {
      const recording = recordTurn(db, conversation.id, turnId, sent).finally(stop.close);
      // A stopping instance lets the turn end (and be stored) before it exits.
      finishBeforeExit(recording);
      return recording;
    },
  });
}
