import type { Readable } from "node:stream";
import { mediaTypeEssence } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { createParser } from "eventsource-parser";
import { webStreamOf } from "@/lib/http/web-stream-of";
import { type GuardedRequest, toResponse } from "./network-guard";
import { guardUnanswered, requestIdsOf } from "./unanswered-guard";

// A larger answer is passed on as the stream it is: the saving is for the many small answers.
const MAX_HELD_BYTES = 1024 * 1024;
// The rest of a stream that gave its answer is read so its connection can serve again, for at most this long.
const DRAIN_MS = 30_000;

type Read = { answer: string } | { stream: ReadableStream<Uint8Array> };

/** Reads what a stream still sends after its answer, and drops it, so the connection is free again. */
function drain(body: Readable, chunks: AsyncIterator<unknown>) {
  const timer = setTimeout(() => body.destroy(), DRAIN_MS);
  timer.unref();
  const next = (): Promise<void> => chunks.next().then((read) => (read.done ? undefined : next()));
  void next()
    .catch(() => {})
    .finally(() => clearTimeout(timer));
}

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

type Chunks = AsyncIterator<unknown>;
type Next = IteratorResult<unknown> | { failed: unknown };

const bytesOf = (value: unknown) => (value instanceof Uint8Array ? value : Buffer.from(String(value)));

function read(chunks: Chunks): Promise<Next> {
  return chunks.next().catch((failed: unknown) => ({ failed }));
}

/** The chunks read so far, then the rest of the stream (or its failure) as it comes. */
function replay(held: Uint8Array[], chunks: Chunks, body: Readable, last?: Next) {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = held.shift();
      if (chunk) return controller.enqueue(chunk);
      const next = last ?? (await read(chunks));
      last = undefined;
      if ("failed" in next) controller.error(next.failed);
      else if (next.done) controller.close();
      else controller.enqueue(bytesOf(next.value));
    },
    async cancel() {
      body.destroy();
      await chunks.return?.();
    },
  });
}

/**
 * The event stream a server answered a POST of one request with, read until it is clear what it holds: the
 * request's answer, when only what a client may skip came before it (comments, events without data such as a
 * priming event's id), as JSON; otherwise the stream itself, from its first byte, handed on at the first event
 * that is something else (a notification, a question to the client, a retry hint, another event type). The
 * answer is the end of the exchange (the server closes the stream after it), so nothing is waited for after it:
 * the rest is read away behind it, so the connection serves again.
 */
export async function singleAnswerOf(body: Readable, id: RequestId): Promise<Read> {
  const chunks = body[Symbol.asyncIterator]();
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
    const next = await read(chunks);
    if ("failed" in next || next.done) return { stream: replay(held, chunks, body, next) };
    const bytes = bytesOf(next.value);
    held.push(bytes);
    size += bytes.length;
    if (size > MAX_HELD_BYTES) return { stream: replay(held, chunks, body) };
    parser.feed(decoder.decode(bytes, { stream: true }));
    if (answer !== undefined) {
      drain(body, chunks);
      return { answer };
    }
    if (other) return { stream: replay(held, chunks, body) };
  }
}

/**
 * A fetch for an MCP client's transport over the guarded request: a POST of one request that its server answers
 * with an event stream holding only the answer comes back as that answer in JSON, which the client reads without
 * parsing events (see singleAnswerOf); any other POST's stream comes back as it is, but answers the POST's requests
 * with an error if it ends before their answers (see guardUnanswered). Everything else is the guarded fetch's.
 */
export function singleAnswerFetch(request: GuardedRequest): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const guarded = await request(input, init);
    const { answer, method, sent } = guarded;
    const type = answer.headers["content-type"];
    if (
      method !== "POST" ||
      answer.statusCode !== 200 ||
      mediaTypeEssence(Array.isArray(type) ? type[0] : type) !== "text/event-stream"
    )
      return toResponse(guarded);
    const requests = requestIdsOf(sent);
    const only = requests.length === 1 ? requests[0] : undefined;
    const read: Read =
      only === undefined ? { stream: webStreamOf(answer.body) } : await singleAnswerOf(answer.body, only);
    return toResponse(guarded, "answer" in read ? read.answer : guardUnanswered(read.stream, requests));
  }) as typeof fetch;
}
