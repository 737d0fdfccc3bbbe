import { randomUUID } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import { onChange, publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { chatTurnChunks, conversations } from "@/db/schema";
import { logger } from "@/lib/logger";

const TURNS_CHANNEL = "switchboard_chat_turns";
const STOPS_CHANNEL = "switchboard_chat_stops";
// A running turn says it still runs this often; one not heard of for three times as long ended with its instance.
const HEARTBEAT_MS = 30_000;
const TURN_SILENCE_MS = 3 * HEARTBEAT_MS;
// What the turn streams is written in batches this often: a few writes a second, not one per token.
const FLUSH_MS = 50;
// A reader waits this long at most between looks, should a change notice be lost.
const FOLLOW_MS = 1000;
const CHUNKS_PER_READ = 200;

/** Makes a new turn the conversation's running one, dropping what the turn before it streamed. */
export async function beginTurn(db: Database, conversationId: string): Promise<string> {
  const turnId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.delete(chatTurnChunks).where(eq(chatTurnChunks.conversationId, conversationId));
    await tx
      .update(conversations)
      .set({ activeTurnId: turnId, activeTurnSeenAt: new Date() })
      .where(eq(conversations.id, conversationId));
  });
  return turnId;
}

/** The turn is over: a reader that reaches the end of what it streamed stops there. */
async function endTurn(db: Database, conversationId: string, turnId: string) {
  await db
    .update(conversations)
    .set({ activeTurnId: null, activeTurnSeenAt: null })
    .where(and(eq(conversations.id, conversationId), eq(conversations.activeTurnId, turnId)));
  await publishChange(db, TURNS_CHANNEL, turnId);
}

/**
 * Keeps what the turn streams to the browser, in order, for any instance to replay to a page that came back, and
 * ends the turn when its stream ends. It reads a copy of the stream, so the turn runs on when the browser leaves.
 */
export async function recordTurn(
  db: Database,
  conversationId: string,
  turnId: string,
  stream: ReadableStream<string>,
): Promise<void> {
  let seq = 0;
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = "";
    const at = ++seq;
    writing = writing
      .then(async () => {
        await db.insert(chatTurnChunks).values({ turnId, seq: at, conversationId, text });
        await publishChange(db, TURNS_CHANNEL, turnId);
      })
      .catch((error: unknown) => logger.warn("chat turn not recorded", { conversationId, err: error }));
  };
  const reader = stream.getReader();
  const heartbeat = setInterval(() => {
    void db
      .update(conversations)
      .set({ activeTurnSeenAt: new Date() })
      .where(and(eq(conversations.id, conversationId), eq(conversations.activeTurnId, turnId)))
      .catch(() => {});
  }, HEARTBEAT_MS);
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pending += read.value;
      timer ??= setTimeout(flush, FLUSH_MS);
    }
  } finally {
    clearInterval(heartbeat);
    clearTimeout(timer);
    flush();
    await writing;
    await endTurn(db, conversationId, turnId).catch((error: unknown) =>
      logger.warn("chat turn not ended", { conversationId, err: error }),
    );
  }
}

/** The conversation's running turn, if it has one. */
export async function runningTurn(db: Database, conversationId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: conversations.activeTurnId, seenAt: conversations.activeTurnSeenAt })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  if (!row?.id || !row.seenAt || Date.now() - row.seenAt.getTime() > TURN_SILENCE_MS) return undefined;
  return row.id;
}

/** The turn's stream from its start, as the browser reads it: what was kept, then what comes, until it ends. */
export function replayTurn(db: Database, conversationId: string, turnId: string): ReadableStream<string> {
  let after = 0;
  let changed = false;
  let wake: () => void = () => {};
  let unlisten: () => void = () => {};
  return new ReadableStream<string>({
    async start() {
      unlisten = await onChange(db, TURNS_CHANNEL, (payload) => {
        if (payload !== turnId && payload !== "*") return;
        changed = true;
        wake();
      });
    },
    async pull(controller) {
      for (;;) {
        changed = false;
        // Whether it still runs is read first: a turn ends only once all it streamed is kept.
        const running = (await runningTurn(db, conversationId)) === turnId;
        const rows = await db
          .select({ seq: chatTurnChunks.seq, text: chatTurnChunks.text })
          .from(chatTurnChunks)
          .where(and(eq(chatTurnChunks.turnId, turnId), gt(chatTurnChunks.seq, after)))
          .orderBy(asc(chatTurnChunks.seq))
          .limit(CHUNKS_PER_READ);
        if (rows.length > 0) {
          after = rows.at(-1)?.seq ?? after;
          controller.enqueue(rows.map((row) => row.text).join(""));
          return;
        }
        if (!running) {
          unlisten();
          controller.close();
          return;
        }
        if (changed) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FOLLOW_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    cancel() {
      unlisten();
    },
  });
}

/** Asks the instance running the turn to stop it; the answer so far is kept as the turn's. */
export async function stopTurn(db: Database, turnId: string): Promise<void> {
  await publishChange(db, STOPS_CHANNEL, turnId);
}

/** A signal that aborts when the turn is asked to stop, on any instance; `close` stops listening. */
export async function stopSignalOf(
  db: Database,
  turnId: string,
): Promise<{ signal: AbortSignal; close: () => void }> {
  const stopped = new AbortController();
  const close = await onChange(db, STOPS_CHANNEL, (payload) => {
    // An AbortError, which the AI SDK takes for a stop (any other reason reads as the model failing).
    if (payload === turnId) stopped.abort(new DOMException("The user stopped the answer.", "AbortError"));
  });
  return { signal: stopped.signal, close };
}
