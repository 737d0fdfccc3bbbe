import type { IncomingMessage } from "node:http";
import { webStreamOfChunks } from "./web-stream-of";

/**
 * A Node request's body as a web stream for a route handler, and a way to drop what the handler left unread.
 * Cancelling the stream stops reading without destroying the request: that would close the socket before the
 * answer (a 413 for a body too large) is written.
 */
export function nodeRequestBody(req: IncomingMessage): {
  stream: ReadableStream<Uint8Array>;
  discardUnread: () => void;
} {
  const chunks = req.iterator({ destroyOnReturn: false });
  const stopReading = async () => {
    await chunks.return?.();
  };
  return {
    stream: webStreamOfChunks(chunks, stopReading),
    // The stream's first read already started the body, so Node no longer drains it by itself once the answer is
    // sent: left unread, the rest of the body would stall every later request on the keep-alive connection.
    discardUnread: () => {
      if (req.complete || req.destroyed) return;
      const drain = () => void req.resume();
      void stopReading().then(drain, drain);
    },
  };
}
