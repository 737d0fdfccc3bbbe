import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import { publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpSessionEvents } from "@/db/schema";

/** The session's own stream (its GET), for messages that answer no request: a list changed, a resource updated. */
export const STANDALONE_STREAM = "standalone";

/** Events are kept this long for a client to come back for them. */
const KEEP_EVENTS_MS = 60 * 60_000;

export const SESSION_EVENTS_CHANNEL = "switchboard_session_events";

/** An event's id as the client sees it: its stream, then its place in the session (0: the stream's start). */
export const eventIdOf = (streamId: string, row: number) => `${streamId}.${row}`;

export function parseEventId(eventId: string): { streamId: string; row: number } | undefined {
  const dot = eventId.lastIndexOf(".");
  const row = Number(eventId.slice(dot + 1));
  if (dot <= 0 || !Number.isSafeInteger(row) || row < 0) return undefined;
  return { streamId: eventId.slice(0, dot), row };
}

/** Keeps a message for the session's client on one stream, and wakes whichever instance holds that stream. */
export async function storeSessionEvent(
  db: Database,
  sessionId: string,
  streamId: string,
  message: JSONRPCMessage,
): Promise<string> {
  const [row] = await db
    .insert(mcpSessionEvents)
    .values({ sessionId, streamId, message: message as Record<string, unknown> })
    .returning({ id: mcpSessionEvents.id });
  await publishChange(db, SESSION_EVENTS_CHANNEL, sessionId);
  return eventIdOf(streamId, (row as { id: number }).id);
}

/** The stream's events after the given one, oldest first. */
export async function sessionEventsAfter(
  db: Database,
  sessionId: string,
  streamId: string,
  afterRow: number,
): Promise<{ id: number; message: JSONRPCMessage }[]> {
  const rows = await db
    .select({ id: mcpSessionEvents.id, message: mcpSessionEvents.message })
    .from(mcpSessionEvents)
    .where(
      and(
        eq(mcpSessionEvents.sessionId, sessionId),
        eq(mcpSessionEvents.streamId, streamId),
        gt(mcpSessionEvents.id, afterRow),
      ),
    )
    .orderBy(asc(mcpSessionEvents.id))
    .limit(500);
  return rows.map((row) => ({ id: row.id, message: row.message as JSONRPCMessage }));
}

/** Drops events no client came back for. */
export async function pruneSessionEvents(db: Database): Promise<void> {
  await db
    .delete(mcpSessionEvents)
    .where(lt(mcpSessionEvents.createdAt, sql`now() - make_interval(secs => ${KEEP_EVENTS_MS / 1000})`));
}

/**
 * The SDK transport's event store for one request of a session: each message of its answer is kept, so a client
 * whose stream broke resumes it on any instance. The stream's opening (priming) event is not stored.
 */
export function sessionEventStore(db: Database, sessionId: string): EventStore {
  return {
    async storeEvent(streamId, message) {
      if (!("jsonrpc" in message)) return eventIdOf(streamId, 0);
      return storeSessionEvent(db, sessionId, streamId, message);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const parsed = parseEventId(lastEventId);
      if (!parsed) throw new Error("Unknown event id");
      for (const event of await sessionEventsAfter(db, sessionId, parsed.streamId, parsed.row))
        await send(eventIdOf(parsed.streamId, event.id), event.message);
      return parsed.streamId;
    },
  };
}
