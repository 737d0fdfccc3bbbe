import { randomUUID } from "node:crypto";
import {
  type ElicitRequest,
  type ElicitResult,
  ElicitResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { UIMessageStreamWriter } from "ai";
import type { Database } from "@/db/client";
import type { UserContext } from "@/lib/auth/context";
import { awaitAnswer } from "@/lib/mcp/relay/pending-answers";
import type { ToolQuestion } from "./tool-relay-schema";

// Someone reads the question and fills the form; after this long the server is told there is no answer.
const ANSWER_WAIT_MS = 10 * 60_000;

/**
 * An MCP server's question during a chat tool call, asked in the chat as a form: the call waits for the person's
 * answer (sent to POST /api/chat/<id>/answers/<question>), or until it is cancelled.
 */
export async function askInChat(
  db: Database,
  ctx: UserContext,
  toolCallId: string,
  params: ElicitRequest["params"],
  signal: AbortSignal,
  writer: UIMessageStreamWriter | undefined,
): Promise<ElicitResult> {
  if (params.mode === "url" || !("requestedSchema" in params))
    throw new Error("The chat asks questions as forms only, not by sending people to a URL.");
  if (!writer) throw new Error("The chat is not open to ask the question.");
  const question: ToolQuestion = {
    id: randomUUID(),
    toolCallId,
    message: params.message,
    requestedSchema: params.requestedSchema,
  };
  writer.write({ type: "data-tool-question", id: question.id, data: question, transient: true });
  const answer = await awaitAnswer(db, question.id, ctx.userId, { signal, timeoutMs: ANSWER_WAIT_MS });
  return ElicitResultSchema.parse(answer);
}
