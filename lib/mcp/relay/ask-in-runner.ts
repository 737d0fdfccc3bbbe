import { randomUUID } from "node:crypto";
import {
  type CreateMessageResult,
  ElicitResultSchema,
  type LoggingMessageNotification,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import type { DownstreamRelay } from "./downstream-relay";
import { awaitAnswer } from "./pending-answers";
import { samplingAnswerSchema } from "./sampling-answer-schema";

// Someone reads the request and answers it; after this long the server is told there is no answer.
const ANSWER_WAIT_MS = 10 * 60_000;

/** What the tool runner's page hears while a call runs, one NDJSON line each. */
export type RunnerLine =
  | ({ type: "progress" } & Progress)
  | ({ type: "log" } & LoggingMessageNotification["params"])
  | { type: "question"; id: string; message: string; requestedSchema: Record<string, unknown> }
  | { type: "sampling"; id: string; request: Record<string, unknown> };

/**
 * The tool runner's relay: the server's progress and log messages go to the page as they come, and its questions
 * (elicitation) and sampling requests are asked there; the call waits for the person's answer, sent to
 * POST /api/integrations/<id>/run/answers/<question>, from whichever instance they reach.
 */
export function runnerRelay(
  db: Database,
  ctx: UserContext,
  emit: (line: RunnerLine) => void,
): DownstreamRelay {
  const ask = async (line: RunnerLine & { id: string }, signal: AbortSignal) => {
    emit(line);
    return awaitAnswer(db, line.id, ctx.userId, { signal, timeoutMs: ANSWER_WAIT_MS });
  };
  return {
    progress: (progress) => emit({ type: "progress", ...progress }),
    log: (message) => emit({ type: "log", ...message }),
    async elicit(params, signal) {
      if (params.mode === "url" || !("requestedSchema" in params))
        throw new Error("The tool runner asks questions as forms only, not by sending people to a URL.");
      const answer = await ask(
        {
          type: "question",
          id: randomUUID(),
          message: params.message,
          requestedSchema: params.requestedSchema,
        },
        signal,
      );
      return ElicitResultSchema.parse(answer);
    },
    async createMessage(params, signal): Promise<CreateMessageResult> {
      const answer = samplingAnswerSchema.parse(
        await ask({ type: "sampling", id: randomUUID(), request: params }, signal),
      );
      if (answer.action === "decline") throw new Error("The person declined to answer the sampling request.");
      return {
        role: "assistant",
        content: { type: "text", text: answer.text },
        model: "answered-in-the-tool-runner",
        stopReason: "endTurn",
      };
    },
  };
}
