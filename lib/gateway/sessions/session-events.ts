import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpSessionEvents } from "@/db/schema";

/** The session's own stream (its GET), for messages that answer no request: a list changed, a resource updated. */
export const STANDALONE_STREAM = "standalone";

/** Events are kept this long for a client to come back for them. */
const KEEP_EVENTS_MS = 60 * 60_000;

export const SESSION_EVENTS_CHANNEL = "switchboard_session_events";

/** An event's id as the client sees it: its stream, then its place in it (0: the stream's start). */
export const eventIdOf = (streamId: string, seq: number) => `${streamId}.${seq}`;

export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const dot = eventId.lastIndexOf(".");
  const seq = Number(eventId.slice(dot + 1));
  if (dot <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { streamId: eventId.slice(0, dot), seq };
}

/** Keeps messages for the session's client on one stream, and wakes whichever instance holds that stream. */
export async function storeEvents(
  db: Database,
  sessionId: string,
  streamId: string,
  events: { seq: number; message: object }[],
): Promise<void> {
  if (events.length === 0) return;
  await db.insert(mcpSessionEvents).values(
    events.map(({ seq, message }) => ({
      sessionId,
      streamId,
      seq,
      message: message as Record<string, unknown>,
    })),
  );
  await publishChange(db, SESSION_EVENTS_CHANNEL, sessionId);
}

/** How many events one read returns at most; a reader that gets this many reads again. */
export const EVENTS_PER_READ = 500;

/** Every kept event of these sessions' streams, in order within each (a parked call's whole log, for instance). */
export async function sessionLogs(
  db: Database,
  sessionIds: string[],
  streamIds: string[],
): Promise<{ sessionId: string; streamId: string; seq: number; message: object }[]> {
  if (sessionIds.length === 0) return [];
  return db
    .select({
      sessionId: mcpSessionEvents.sessionId,
      streamId: mcpSessionEvents.streamId,
      seq: mcpSessionEvents.seq,
      message: mcpSessionEvents.message,
    })
    .from(mcpSessionEvents)
    .where(
      and(inArray(mcpSessionEvents.sessionId, sessionIds), inArray(mcpSessionEvents.streamId, streamIds)),
    )
    .orderBy(asc(mcpSessionEvents.sessionId), asc(mcpSessionEvents.streamId), asc(mcpSessionEvents.seq));
}

/** The stream's kept events after the given one, in order. */
export async function sessionEventsAfter(
  db: Database,
  sessionId: string,
  streamId: string,
  afterSeq: number,
): Promise<{ seq: number; message: JSONRPCMessage }[]> {
  const rows = await db
    .select({ seq: mcpSessionEvents.seq, message: mcpSessionEvents.message })
    .from(mcpSessionEvents)
    .where(
      and(
        eq(mcpSessionEvents.sessionId, sessionId),
        eq(mcpSessionEvents.streamId, streamId),
        gt(mcpSessionEvents.seq, afterSeq),
      ),
    )
    .orderBy(asc(mcpSessionEvents.seq))
    .limit(EVENTS_PER_READ);
  return rows.map((row) => ({ seq: row.seq, message: row.message as JSONRPCMessage }));
}

/** Drops events no client came back for. */
export async function pruneSessionEvents(db: Database): Promise<void> {
  await db
    .delete(mcpSessionEvents)
    .where(lt(mcpSessionEvents.createdAt, sql`now() - make_interval(secs => ${KEEP_EVENTS_MS / 1000})`));
}

// A call that reports progress very often keeps at most this many events in memory before keeping them here.
const KEPT_IN_MEMORY = 200;

/**
 * The SDK transport's event store for one POST of a session. While the client holds the stream, its events are
 * only numbered and kept in memory: most calls end so, and cost the database nothing. Once the client loses it
 * (`lost`), they are written here with every later one, so the client resumes the stream (GET with
 * Last-Event-ID) on any instance. The stream's opening (priming) event is not stored.
 */
export function sessionEventStore(db: Database, sessionId: string) {
  const streams = new Map<string, { seq: number; kept: { seq: number; message: JSONRPCMessage }[] }>();
  let lost = false;
  let writing = Promise.resolve();
  // Writes one after the other, so a stream's events are stored in order.
  const write = (streamId: string, events: { seq: number; message: JSONRPCMessage }[]) => {
    writing = writing.then(() => storeEvents(db, sessionId, streamId, events));
    return writing;
  };
  const store: EventStore = {
    async storeEvent(streamId, message) {
      let stream = streams.get(streamId);
      if (!stream) {
        stream = { seq: 0, kept: [] };
        streams.set(streamId, stream);
      }
      if (!("jsonrpc" in message)) return eventIdOf(streamId, 0);
      const event = { seq: ++stream.seq, message };
      if (lost) await write(streamId, [event]);
      else {
        stream.kept.push(event);
        if (stream.kept.length >= KEPT_IN_MEMORY) await write(streamId, stream.kept.splice(0));
      }
      return eventIdOf(streamId, event.seq);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const parsed = parseEventId(lastEventId);
      if (!parsed) throw new Error("Unknown event id");
      for (const event of await sessionEventsAfter(db, sessionId, parsed.streamId, parsed.seq))
        await send(eventIdOf(parsed.streamId, event.seq), event.message);
      return parsed.streamId;
    },
  };
  return {
    store,
    /** The client lost the stream: what it may have missed is written, and so is all that follows. */
    lost(): Promise<void> {
      if (lost) return writing;
      lost = true;
      for (const [streamId, stream] of streams) void write(streamId, stream.kept.splice(0));
      return writing;
    },
  };
}
