import { randomUUID } from "node:crypto";
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/server";
import { and, eq, max } from "drizzle-orm";
import { onChange, publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpGatewaySessions, mcpSessionEvents } from "@/db/schema";
import { onStreamsEnd } from "@/lib/http/draining.mjs";
import { logger } from "@/lib/logger";
import { jsonRpcError } from "../json-rpc-error";
import {
  EVENTS_PER_READ,
  eventIdOf,
  parseEventId,
  SESSION_EVENTS_CHANNEL,
  STANDALONE_STREAM,
  sessionEventsAfter,
} from "./session-events";
import type { GatewaySession } from "./session-store";

const TAKEOVER = "takeover ";

// Proxies close quiet connections; a comment now and then keeps the stream open (and notices a session gone).
const KEEP_ALIVE_MS = 25_000;

async function latestSeq(db: Database, sessionId: string, streamId: string): Promise<number> {
  const [row] = await db
    .select({ seq: max(mcpSessionEvents.seq) })
    .from(mcpSessionEvents)
    .where(and(eq(mcpSessionEvents.sessionId, sessionId), eq(mcpSessionEvents.streamId, streamId)));
  return row?.seq ?? 0;
}

async function sessionExists(db: Database, session: GatewaySession): Promise<boolean> {
  const [row] = await db
    .select({ id: mcpGatewaySessions.id })
    .from(mcpGatewaySessions)
    .where(
      and(
        eq(mcpGatewaySessions.id, session.id),
        eq(mcpGatewaySessions.organizationId, session.organizationId),
      ),
    );
  return row !== undefined;
}

/**
 * A session's GET: its own stream of messages that answer no request (a list changed, a resource updated), or,
 * with Last-Event-ID, the rest of a stream the client lost, from where it left off, on whichever instance it
 * reconnects to. Messages arrive through PostgreSQL's LISTEN/NOTIFY from the instance that sent them; a resumed
 * request stream ends with its answer.
 */
export async function serveSessionStream(
  db: Database,
  request: Request,
  session: GatewaySession,
): Promise<Response> {
  if (!request.headers.get("accept")?.includes("text/event-stream"))
    return jsonRpcError(406, -32000, "Not Acceptable: a GET on this endpoint must accept text/event-stream.");
  const lastEventId = request.headers.get("last-event-id");
  const resumed = lastEventId ? parseEventId(lastEventId) : undefined;
  if (lastEventId && !resumed)
    return jsonRpcError(400, -32000, `Bad Request: "${lastEventId}" is not an event id of this endpoint.`);
  const streamId = resumed?.streamId ?? STANDALONE_STREAM;
  let after = resumed?.seq ?? (await latestSeq(db, session.id, streamId));

  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let draining: Promise<void> | undefined;
      let again = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const end = () => {
        if (closed) return;
        closed = true;
        stop();
        controller.close();
      };
      const drain = async () => {
        do {
          again = false;
          const events = await sessionEventsAfter(db, session.id, streamId, after);
          if (events.length === EVENTS_PER_READ) again = true;
          for (const event of events) {
            after = event.seq;
            write(
              `id: ${eventIdOf(streamId, event.seq)}\nevent: message\ndata: ${JSON.stringify(event.message)}\n\n`,
            );
            if (streamId !== STANDALONE_STREAM && isAnswer(event.message)) return end();
          }
        } while (again && !closed);
      };
      const wake = () => {
        if (closed) return;
        if (draining) {
          again = true;
          return;
        }
        draining = drain()
          .catch((error: unknown) => logger.warn("session stream not read", { err: error }))
          .finally(() => {
            draining = undefined;
          });
      };
      // Each message goes on one stream only: a session's own stream opened anew (on any instance) ends this one.
      const holder = randomUUID();
      const takenOver = `${TAKEOVER}${session.id} `;
      const unlisten = await onChange(db, SESSION_EVENTS_CHANNEL, (payload) => {
        if (payload === session.id || payload === "*") wake();
        else if (streamId === STANDALONE_STREAM && payload.startsWith(takenOver) && !payload.endsWith(holder))
          end();
      });
      if (streamId === STANDALONE_STREAM)
        await publishChange(db, SESSION_EVENTS_CHANNEL, `${takenOver}${holder}`);
      const keepAlive = setInterval(() => {
        write(": keep-alive\n\n");
        sessionExists(db, session)
          .then((exists) => exists || end())
          .catch(() => {});
      }, KEEP_ALIVE_MS);
      // A stopping instance ends its streams; the client resumes this one with Last-Event-ID on another.
      const forget = onStreamsEnd(end);
      stop = () => {
        clearInterval(keepAlive);
        unlisten();
        forget();
      };
      // A client on 2025-11-25 or later gets an event id at once, so it can resume even a quiet stream.
      if (session.protocolVersion >= "2025-11-25") write(`id: ${eventIdOf(streamId, after)}\ndata: \n\n`);
      wake();
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

function isAnswer(message: JSONRPCMessage): boolean {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}
