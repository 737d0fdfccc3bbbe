import { mediaTypeEssence } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { createParser } from "eventsource-parser";
import { guardUnanswered, requestIdsOf } from "./unanswered-guard";

// A larger answer is passed on as the stream it is: the saving is for the many small answers.
const MAX_HELD_BYTES = 1024 * 1024;
// The rest of a stream that gave its answer is read so its connection can serve again, for at most this long.
const DRAIN_MS = 30_000;

type Read = { answer: string } | { stream: ReadableStream<Uint8Array> };

/** Whether an event's data is the answer to request `id`: a JSON-RPC result or error with that id, no method. */
function isAnswerTo(data: string, id: RequestId): boolean {
  try {
    const message: unknown = JSON.parse(data);
    if (message === null || typeof message !== "object" || Array.isArray(message)) return false;
    return (
      "id" in message &&
      message.id === id &&
      ("result" in message || "error" in message) &&
      !("method" in message)
    );
  } catch {
    return false;
  }
}

/** The chunks read so far, then the rest of the stream (or its failure) as it comes. */
function replay(
  held: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
  failure?: { error: unknown },
) {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = held.shift();
      if (chunk) return controller.enqueue(chunk);
      if (failure) return controller.error(failure.error);
      try {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Reads what a stream still sends after its answer, and drops it, so the connection is free again. */
function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), DRAIN_MS);
  timer.unref();
  const next = (): Promise<void> => reader.read().then((read) => (read.done ? undefined : next()));
  void next()
    .catch(() => {})
    .finally(() => clearTimeout(timer));
}

/**
 * The event stream a server answered a POST of one request with, read until it is clear what it holds: the
 * request's answer, when only what a client may skip came before it (comments, events without data such as a
 * priming event's id), as JSON; otherwise the stream itself, from its first byte, handed on at the first event
 * that is something else (a notification, a question to the client, a retry hint, another event type). The
 * answer is the end of the exchange (the server closes the stream after it), so nothing is waited for after it.
 */
export async function singleAnswerOf(body: ReadableStream<Uint8Array>, id: RequestId): Promise<Read> {
  const reader = body.getReader();
  const held: Uint8Array[] = [];
  let size = 0;
  let answer: string | undefined;
  let other = false;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (answer !== undefined || other || !event.data) return;
      if ((event.event ?? "message") === "message" && isAnswerTo(event.data, id)) answer = event.data;
      else other = true;
    },
    onRetry() {
      if (answer === undefined) other = true;
    },
    onError() {
      if (answer === undefined) other = true;
    },
  });
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      return { stream: replay(held, reader, { error }) };
    }
    if (next.done) {
      parser.feed(decoder.decode());
      return answer !== undefined ? { answer } : { stream: replay(held, reader) };
    }
    held.push(next.value);
    size += next.value.length;
    if (size > MAX_HELD_BYTES) return { stream: replay(held, reader) };
    parser.feed(decoder.decode(next.value, { stream: true }));
    if (answer !== undefined) {
      drain(reader);
      return { answer };
    }
    if (other) return { stream: replay(held, reader) };
  }
}

/** The response with another body: the answer as JSON, or the stream. */
function withBody(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  if (typeof body === "string") {
    headers.set("content-type", "application/json");
    headers.delete("content-length");
  }
  const rebuilt = new Response(body, { status: response.status, statusText: response.statusText, headers });
  Object.defineProperty(rebuilt, "url", { value: response.url });
  return rebuilt;
}

/**
 * A fetch for an MCP client's transport: a POST of one request that its server answers with an event stream
 * holding only the answer comes back as that answer in JSON, which the client reads without parsing events (see
 * singleAnswerOf); any other POST's stream comes back as it is, but answers the POST's requests with an error if it
 * ends before their answers (see guardUnanswered).
 */
export function singleAnswerFetch(inner: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await inner(input, init);
    if (
      init?.method?.toUpperCase() !== "POST" ||
      response.status !== 200 ||
      !response.body ||
      mediaTypeEssence(response.headers.get("content-type") ?? undefined) !== "text/event-stream"
    )
      return response;
    const requests = requestIdsOf(
      typeof init.body === "string" || init.body instanceof Uint8Array ? init.body : undefined,
    );
    const only = requests.length === 1 ? requests[0] : undefined;
    const read: Read =
      only === undefined ? { stream: response.body } : await singleAnswerOf(response.body, only);
    return withBody(response, "answer" in read ? read.answer : guardUnanswered(read.stream, requests));
  }) as typeof fetch;
}
