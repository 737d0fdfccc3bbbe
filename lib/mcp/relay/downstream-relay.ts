import { AsyncLocalStorage } from "node:async_hooks";
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
  LoggingMessageNotification,
  Progress,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * Where an upstream server's messages about a call go: back to whoever made the call (a gateway client in a
 * session, the chat). Each is absent when that caller cannot take it, and the upstream server is told so. A
 * question's `name` is the server's own for it (a 2026-07-28 input request's key), where it gave one.
 */
export interface DownstreamRelay {
  progress?(progress: Progress): void;
  elicit?(params: ElicitRequest["params"], signal: AbortSignal, name?: string): Promise<ElicitResult>;
  createMessage?(
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
    name?: string,
  ): Promise<CreateMessageResult>;
  listRoots?(signal: AbortSignal, name?: string): Promise<ListRootsResult>;
  log?(params: LoggingMessageNotification["params"]): void;
}

const current = new AsyncLocalStorage<DownstreamRelay>();

/** Runs a call with its relay: the upstream messages it causes reach the caller. */
export function withDownstreamRelay<T>(relay: DownstreamRelay | undefined, run: () => T): T {
  return relay ? current.run(relay, run) : run();
}

/** The relay of the call under way, where the call's own async context reaches (HTTP transports). */
export function currentRelay(): DownstreamRelay | undefined {
  return current.getStore();
}

// Messages read from a stdio server's output are not in any call's async context: while exactly one relayed call
// is under way on that connection, they are that call's.
const relaysByConnection = new WeakMap<object, Set<DownstreamRelay>>();

/** Runs a call on an upstream connection, so messages that arrive outside its context still find its relay. */
export async function relayedOn<T>(connection: object, run: () => Promise<T>): Promise<T> {
  const relay = current.getStore();
  if (!relay) return run();
  let relays = relaysByConnection.get(connection);
  if (!relays) {
    relays = new Set();
    relaysByConnection.set(connection, relays);
  }
  relays.add(relay);
  try {
    return await run();
  } finally {
    relays.delete(relay);
  }
}

/** The relay for a message from the upstream connection: its call's, or the only relayed call's on it. */
export function relayFor(connection: object): DownstreamRelay | undefined {
  const own = current.getStore();
  if (own) return own;
  const relays = relaysByConnection.get(connection);
  return relays?.size === 1 ? relays.values().next().value : undefined;
}
