import type { Readable } from "node:stream";

/**
 * A Node stream as a web stream, read only when the reader asks. (Node's Readable.toWeb pushes on, and throws an
 * uncaught "Controller is already closed" when a reader cancels mid-stream, as an SSE client does on close.)
 */
export function webStreamOf(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return webStreamOfChunks(chunks, async () => {
    body.destroy();
    await chunks.return?.();
  });
}

/** A Node stream's chunks as a web stream, pulled one at a time; `cancel` says what a reader's cancel does. */
export function webStreamOfChunks(
  chunks: AsyncIterator<unknown>,
  cancel: () => Promise<void>,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value instanceof Uint8Array ? value : Buffer.from(String(value)));
      } catch (error) {
        // Also reached when the reader cancelled while a chunk was on its way; erroring a closed stream does nothing.
        controller.error(error);
      }
    },
    cancel,
  });
}
