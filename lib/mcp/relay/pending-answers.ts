import { onChange, publishChange } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { logger } from "@/lib/logger";

const CHANNEL = "switchboard_pending_answers";
// An answer travels in a NOTIFY payload (at most 8,000 bytes), with room for its id and owner.
export const MAX_ANSWER_BYTES = 6000;

interface Pending {
  ownerId: string;
  resolve(answer: unknown): void;
}

// Per database handle, as an instance's memory is.
const waiting = new WeakMap<Database, Map<string, Pending>>();
const listening = new WeakMap<Database, Promise<unknown>>();

function waitingOn(db: Database): Map<string, Pending> {
  let map = waiting.get(db);
  if (!map) {
    map = new Map();
    waiting.set(db, map);
  }
  return map;
}

/** Hands the answer to the question if it waits here and belongs to this owner. */
function take(db: Database, id: string, ownerId: string, answer: unknown): boolean {
  const map = waitingOn(db);
  const pending = map.get(id);
  if (!pending || pending.ownerId !== ownerId) return false;
  map.delete(id);
  pending.resolve(answer);
  return true;
}

function listen(db: Database): Promise<unknown> {
  let started = listening.get(db);
  if (!started) {
    started = onChange(db, CHANNEL, (payload) => {
      try {
        const { id, ownerId, answer } = JSON.parse(payload) as {
          id: string;
          ownerId: string;
          answer: unknown;
        };
        take(db, id, ownerId, answer);
      } catch (error) {
        logger.warn("answer not read", { err: error });
      }
    }).catch((error: unknown) => {
      listening.delete(db);
      throw error;
    });
    listening.set(db, started);
  }
  return started;
}

/**
 * Waits for a person's answer to a question asked during a call (an MCP server's elicitation), given to whichever
 * instance they send it to; gives up when the call is cancelled or after `timeoutMs`.
 */
export async function awaitAnswer(
  db: Database,
  id: string,
  ownerId: string,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<unknown> {
  await listen(db);
  const map = waitingOn(db);
  return new Promise((resolve, reject) => {
    const stop = (error: Error) => {
      map.delete(id);
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => stop(new Error("No answer came in time.")), options.timeoutMs);
    options.signal.addEventListener("abort", () => stop(new Error("The call was cancelled.")), {
      once: true,
    });
    map.set(id, {
      ownerId,
      resolve: (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
    });
  });
}

/** Gives the owner's answer to the question with this id, here or on the instance where it waits. */
export async function deliverAnswer(
  db: Database,
  id: string,
  ownerId: string,
  answer: unknown,
): Promise<void> {
  if (take(db, id, ownerId, answer)) return;
  await publishChange(db, CHANNEL, JSON.stringify({ id, ownerId, answer }));
}
