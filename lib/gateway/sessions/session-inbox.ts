import { randomBytes } from "node:crypto";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/server";
import { and, eq } from "drizzle-orm";
import { onChange, publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { mcpSessionEvents } from "@/db/schema";
import { logger } from "@/lib/logger";

const INBOX_CHANNEL = "switchboard_session_inbox";
const INBOX_STREAM = "inbox";

/** The requests of one POST that run on this instance, and the way into their server. */
interface Exchange {
  requestIds: Set<RequestId>;
  /** Ids this instance gave the requests it sent the client, and the ids the server gave them. */
  outgoing: Map<string, RequestId>;
  deliver(message: JSONRPCMessage): void;
}

/** What this instance runs for sessions; per database handle, as an instance's memory is. */
interface Instance {
  /** Requests this instance sends clients carry it, so an answer that lands on another instance comes back. */
  outgoingPrefix: string;
  outgoingCount: number;
  exchanges: Map<string, Set<Exchange>>;
  listening?: Promise<unknown>;
}

const instances = new WeakMap<Database, Instance>();

function instanceOf(db: Database): Instance {
  let instance = instances.get(db);
  if (!instance) {
    instance = {
      outgoingPrefix: `sb.${randomBytes(6).toString("hex")}.`,
      outgoingCount: 0,
      exchanges: new Map(),
    };
    instances.set(db, instance);
  }
  return instance;
}

function isCancellation(message: JSONRPCMessage): message is JSONRPCMessage & {
  params: { requestId: RequestId };
} {
  return (
    isJSONRPCNotification(message) &&
    message.method === "notifications/cancelled" &&
    message.params?.requestId !== undefined
  );
}

/** Delivers the message to the request it concerns if that runs here; true if nothing else needs to see it. */
function deliverHere(instance: Instance, sessionId: string, message: JSONRPCMessage): boolean {
  const local = instance.exchanges.get(sessionId);
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
    const id = String(message.id);
    if (!id.startsWith(instance.outgoingPrefix)) return false;
    for (const exchange of local ?? []) {
      const original = exchange.outgoing.get(id);
      if (original === undefined) continue;
      exchange.outgoing.delete(id);
      exchange.deliver({ ...message, id: original });
    }
    // Ours: either delivered, or the request it answers is over.
    return true;
  }
  if (isCancellation(message)) {
    for (const exchange of local ?? [])
      if (exchange.requestIds.has(message.params.requestId)) {
        exchange.deliver(message);
        return true;
      }
  }
  return false;
}

function listenToInbox(db: Database, instance: Instance): Promise<unknown> {
  instance.listening ??= onChange(db, INBOX_CHANNEL, (payload) => {
    const [sessionId, row] = payload.split(" ");
    if (!sessionId || !row || !instance.exchanges.has(sessionId)) return;
    void db
      .select({ message: mcpSessionEvents.message })
      .from(mcpSessionEvents)
      .where(and(eq(mcpSessionEvents.id, Number(row)), eq(mcpSessionEvents.sessionId, sessionId)))
      .then(([found]) => {
        if (found) deliverHere(instance, sessionId, found.message as JSONRPCMessage);
      })
      .catch((error: unknown) => logger.warn("session message not read", { err: error }));
  }).catch((error: unknown) => {
    instance.listening = undefined;
    throw error;
  });
  return instance.listening;
}

/**
 * Registers one POST's requests as running here, until `close`: a client's answer to a request they sent it, or
 * a cancellation of one of them, reaches them from whichever instance the client sent it to.
 */
export async function openExchange(
  db: Database,
  sessionId: string,
  requestIds: RequestId[],
  deliver: (message: JSONRPCMessage) => void,
) {
  const instance = instanceOf(db);
  const exchange: Exchange = { requestIds: new Set(requestIds), outgoing: new Map(), deliver };
  let local = instance.exchanges.get(sessionId);
  if (!local) {
    local = new Set();
    instance.exchanges.set(sessionId, local);
  }
  local.add(exchange);
  await listenToInbox(db, instance);
  return {
    /** The id to send a request to the client under: unique across instances, and leading back here. */
    outgoingId(original: RequestId): string {
      const id = `${instance.outgoingPrefix}${++instance.outgoingCount}`;
      exchange.outgoing.set(id, original);
      return id;
    },
    /** The id the client knows a request sent to it by, from the one the server gave it. */
    sentAs(original: RequestId): string | undefined {
      for (const [id, known] of exchange.outgoing) if (known === original) return id;
      return undefined;
    },
    close() {
      local.delete(exchange);
      if (local.size === 0 && instance.exchanges.get(sessionId) === local)
        instance.exchanges.delete(sessionId);
    },
  };
}

/**
 * A client's answer or cancellation for requests of its session: delivered here when they run here, otherwise
 * kept and announced to every instance. Anything else (`notifications/initialized`…) needs no one.
 */
export async function sendToSessionRequests(
  db: Database,
  sessionId: string,
  message: JSONRPCMessage,
): Promise<void> {
  const forRequests =
    isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) || isCancellation(message);
  if (!forRequests || deliverHere(instanceOf(db), sessionId, message)) return;
  const [row] = await db
    .insert(mcpSessionEvents)
    .values({ sessionId, streamId: INBOX_STREAM, message: message as Record<string, unknown> })
    .returning({ id: mcpSessionEvents.id });
  await publishChange(db, INBOX_CHANNEL, `${sessionId} ${(row as { id: number }).id}`);
}
