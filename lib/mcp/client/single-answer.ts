import type { Readable } from "node:stream";

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
 * Reads an event stream's lines as they come (LF, CRLF or CR), and says after each event whether the stream is
 * still only what a client may skip: events without data (a priming event's id), comments, then one message event
 * holding an answer. Anything else (a second message, a notification, a retry hint, another event type) makes it
 * not plain.
 */
class EventScan {
  plain = true;
  answer: string | undefined;
  private decoder = new TextDecoder();
  private rest = "";
  private scanned = 0;
  private data: string | undefined;
  private type = "";

  push(bytes: Uint8Array | undefined): void {
    this.rest += bytes ? this.decoder.decode(bytes, { stream: true }) : this.decoder.decode();
    let start = 0;
    // A long line comes in many chunks: what was already looked at is not looked at again.
    let i = this.scanned;
    for (; i < this.rest.length && this.plain; i++) {
      const char = this.rest[i];
      if (char !== "\n" && char !== "\r") continue;
      // A CR at the end of what came so far may be the first half of a CRLF.
      if (char === "\r" && i === this.rest.length - 1 && bytes) break;
      this.line(this.rest.slice(start, i));
      if (char === "\r" && this.rest[i + 1] === "\n") i++;
      start = i + 1;
    }
    this.rest = this.rest.slice(start);
    this.scanned = i - start;
  }

  private line(line: string): void {
    if (line === "") {
      this.dispatch();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
    if (field === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (field === "event") this.type = value;
    else if (field === "retry") this.plain = false;
    // An id (a priming event's) matters only to resume a stream that ends without its answer.
  }

  private dispatch(): void {
    const data = this.data;
    const type = this.type;
    this.data = undefined;
    this.type = "";
    if (!data) return;
    if ((type !== "" && type !== "message") || this.answer !== undefined || !isAnswer(data))
      this.plain = false;
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
