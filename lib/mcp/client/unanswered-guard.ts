import { randomUUID } from "node:crypto";
import { ErrorCode, McpError, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { createParser } from "eventsource-parser";

// Marks the answers this module makes up, so they are never taken for a server's own (it cannot know the token).
const MARK = "switchboard/streamEnded";
const token = randomUUID();

/** The requests of a POST body (JSON-RPC messages with a method and an id), whose answers its stream must bring. */
export function requestIdsOf(body: string | Uint8Array | undefined): RequestId[] {
  if (body === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
  } catch {
    return [];
  }
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((message) => {
    if (message === null || typeof message !== "object" || !("method" in message) || !("id" in message))
      return [];
    const { id } = message as { id: unknown };
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}

function answeredId(data: string): RequestId | undefined {
  try {
    const message: unknown = JSON.parse(data);
    if (message === null || typeof message !== "object" || "method" in message) return undefined;
    const { id } = message as { id?: unknown };
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The answer an unanswered request gets when its stream ended: an MCP error the client rejects the call with. */
function endedAnswer(id: RequestId): Uint8Array {
  const message = {
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.ConnectionClosed,
      message: "The server ended its answer before answering.",
      data: { [MARK]: token },
    },
  };
  return new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** Whether the client rejected a call with the answer `guardUnanswered` made up for it. */
export function isStreamEndedError(error: unknown): boolean {
  if (!(error instanceof McpError) || error.code !== ErrorCode.ConnectionClosed) return false;
  const data = error.data as Record<string, unknown> | undefined;
  return data?.[MARK] === token;
}

/**
 * The event stream a POST was answered with, as it comes; but when it ends (or breaks) before answering every
 * request of the POST, and gave no event id to resume it by, each unanswered request gets an error answer. The
 * MCP client would otherwise wait for those answers until the call's timeout.
 */
export function guardUnanswered(
  stream: ReadableStream<Uint8Array>,
  requestIds: RequestId[],
): ReadableStream<Uint8Array> {
  if (requestIds.length === 0) return stream;
  const waiting = new Set<RequestId>(requestIds);
  let resumable = false;
  let done = false;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (event.id) resumable = true;
      const id = event.data ? answeredId(event.data) : undefined;
      if (id !== undefined) waiting.delete(id);
      if (waiting.size === 0) done = true;
    },
  });
  const source = stream.getReader();
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (!resumable && waiting.size > 0) {
      // Ends a line or event the stream broke off in, so what follows is read on its own.
      controller.enqueue(new TextEncoder().encode("\n\n"));
      for (const id of waiting) controller.enqueue(endedAnswer(id));
    }
    waiting.clear();
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await source.read();
      } catch (error) {
        if (resumable || waiting.size === 0) return controller.error(error);
        return end(controller);
      }
      if (read.done) return end(controller);
      // Once every request is answered, the rest is not looked at.
      if (!done) parser.feed(decoder.decode(read.value, { stream: true }));
      controller.enqueue(read.value);
    },
    cancel(reason) {
      return source.cancel(reason);
    },
  });
}
