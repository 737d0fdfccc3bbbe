import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { Sql } from "postgres";
import type { Database } from "./client";

/**
 * What a process may keep in memory and must drop when it changes anywhere: each channel names one kind of
 * record, and its payload says which one (an organization id, a key id) or "*" for all.
 */
export type ChangeChannel =
  | "switchboard_api_keys"
  | "switchboard_oauth_grants"
  | "switchboard_catalog"
  | "switchboard_access"
  | "switchboard_orgs"
  | "switchboard_gateway_sessions"
  | "switchboard_session_events"
  | "switchboard_session_inbox"
  | "switchboard_listen_events"
  | "switchboard_pending_answers"
  | "switchboard_chat_turns"
  | "switchboard_chat_stops";

type Listener = (payload: string) => void;

interface Feed {
  listeners: Map<ChangeChannel, Set<Listener>>;
  listening: Map<ChangeChannel, Promise<void>>;
}

// Per database handle, so tests with databases of their own never hear each other.
const feeds = new WeakMap<object, Feed>();

function feedOf(db: Database): Feed {
  let feed = feeds.get(db);
  if (!feed) {
    feed = { listeners: new Map(), listening: new Map() };
    feeds.set(db, feed);
  }
  return feed;
}

function deliver(feed: Feed, channel: ChangeChannel, payload: string) {
  for (const listener of feed.listeners.get(channel) ?? []) listener(payload);
}

/** Starts LISTEN on the database once per channel; a reconnected listener may have missed changes, so all go. */
function listenOn(db: Database, feed: Feed, channel: ChangeChannel): Promise<void> {
  const client = (db as unknown as { $client: unknown }).$client;
  const hear = (payload: string) => deliver(feed, channel, payload);
  if (client instanceof PGlite) return client.listen(channel, hear).then(() => {});
  let connected = false;
  const onListen = () => {
    if (connected) deliver(feed, channel, "*");
    connected = true;
  };
  return (client as Sql).listen(channel, hear, onListen).then(() => {});
}

/**
 * Hears every change published on the channel, from this process at once and from other instances through
 * PostgreSQL's LISTEN/NOTIFY. Resolves once listening, so a cache filled afterwards cannot miss a change.
 */
export async function onChange(
  db: Database,
  channel: ChangeChannel,
  listener: Listener,
): Promise<() => void> {
  const feed = feedOf(db);
  let listeners = feed.listeners.get(channel);
  if (!listeners) {
    listeners = new Set();
    feed.listeners.set(channel, listeners);
  }
  listeners.add(listener);
  let listening = feed.listening.get(channel);
  if (!listening) {
    listening = listenOn(db, feed, channel);
    // A failed LISTEN is tried again by the next subscriber rather than remembered.
    listening.catch(() => feed.listening.delete(channel));
    feed.listening.set(channel, listening);
  }
  try {
    await listening;
  } catch (error) {
    // Not listening: the caller keeps nothing, so the next attempt does not add a second listener.
    listeners.delete(listener);
    throw error;
  }
  return () => listeners.delete(listener);
}

/**
 * Tells every instance that a record changed. Inside a transaction (`executor` being it), other instances hear
 * it when it commits; this process hears it at once, and again at the commit, so nothing re-cached in between
 * survives.
 */
export async function publishChange(
  db: Database,
  channel: ChangeChannel,
  payload: string,
  executor: Pick<Database, "execute"> = db,
): Promise<void> {
  deliver(feedOf(db), channel, payload);
  await executor.execute(sql`select pg_notify(${channel}, ${payload})`);
}
