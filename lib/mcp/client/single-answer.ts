import type { Readable } from "node:stream";
import { EventStreamReader, type StreamEvent } from "./event-stream-reader";

// How long a stream that has given its answer may take to end before it is passed on as a stream after all.
const END_WAIT_MS = 20;
// A larger answer is passed on as the stream it is: the saving is for the many small answers.
const MAX_HELD_BYTES = 1024 * 1024;

type Chunks = AsyncIterator<unknown>;
type Read = IteratorResult<unknown> | { failed: unknown };

const bytesOf = (value: unknown) => (value instanceof Uint8Array ? value : Buffer.from(String(value)));

/** An answer from a JSON-RPC server: an object with an id and a result or an error, and no method. */
function isAnswer(data: string): boolean {
  try {
    const message: unknown = JSON.parse(data);
    if (message === null || typeof message !== "object" || Array.isArray(message)) return false;
    return "id" in message && ("result" in message || "error" in message) && !("method" in message);
  } catch {
    return false;
  }
}

/**
 * Says after each event of a stream whether it is still only what a client may skip: events without data (a
 * priming event's id), comments, then one message event holding an answer. Anything else (a second message, a
 * notification, a retry hint, another event type) makes it not plain.
 */
class EventScan {
  answer: string | undefined;
  private readonly reader = new EventStreamReader(
    (event) => this.event(event),
    () => {
      this.reader.stopped = true;
    },
  );

  get plain(): boolean {
    return !this.reader.stopped;
  }

  push(bytes: Uint8Array | undefined): void {
    this.reader.push(bytes);
  }

  private event({ type, data }: StreamEvent): void {
    if (!data) return;
    if ((type !== "" && type !== "message") || this.answer !== undefined || !isAnswer(data))
      this.reader.stopped = true;
    else this.answer = data;
  }
}

function read(chunks: Chunks): Promise<Read> {
  return chunks.next().catch((failed: unknown) => ({ failed }));
}

/** The chunks read so far, then the rest of the stream (or its failure) as it comes. */
function replay(held: Uint8Array[], next: Promise<Read> | undefined, chunks: Chunks, body: Readable) {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const value = held.shift();
      if (value) return controller.enqueue(value);
      const result = await (next ?? read(chunks));
      next = undefined;
      if ("failed" in result) controller.error(result.failed);
      else if (result.done) controller.close();
      else controller.enqueue(bytesOf(result.value));
    },
    async cancel() {
      body.destroy();
      await chunks.return?.();
    },
  });
}

/**
 * The event stream a server answered a POST with, read until it is clear what it holds: its one answer, when that
 * is all it says (a priming event aside) and it ends, as JSON; otherwise the stream itself, from its first byte,
 * handed on as soon as it says anything else. The client then skips the event-stream parsing a lone answer does
 * not need, and misses nothing: progress, questions and log messages during a call still stream.
 */
export async function singleAnswerOf(
  body: Readable,
): Promise<{ answer: string } | { stream: ReadableStream<Uint8Array> }> {
  const chunks = body[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  const scan = new EventScan();
  let size = 0;
  for (;;) {
    let next = read(chunks);
    if (scan.answer !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), END_WAIT_MS);
      });
      const first = await Promise.race([next, late]);
      clearTimeout(timer);
      if (first === undefined) return { stream: replay(held, next, chunks, body) };
      next = Promise.resolve(first);
    }
    const result = await next;
    if ("failed" in result) return { stream: replay(held, Promise.resolve(result), chunks, body) };
    if (result.done) {
      scan.push(undefined);
      if (scan.plain && scan.answer !== undefined) return { answer: scan.answer };
      return { stream: replay(held, Promise.resolve(result), chunks, body) };
    }
    const bytes = bytesOf(result.value);
    held.push(bytes);
    size += bytes.length;
    scan.push(bytes);
    if (!scan.plain || size > MAX_HELD_BYTES) return { stream: replay(held, undefined, chunks, body) };
  }
}
