import { processWide } from "@/lib/process-wide.mjs";
import type { Database } from "./client";

/**
 * Writes buffered in memory for a database (usage records, rate-limit counts) and flushed in batches: each buffer
 * says here when it holds something, so it is flushed before its database handle closes and before the process
 * stops on SIGINT or SIGTERM. (A script cannot simply run dry: an open database keeps it alive, and closing the
 * handle flushes.) A crash loses what was not flushed yet.
 */
type Flush = () => Promise<void>;

interface Registry {
  /** Only databases with something buffered, so a closed test database is not held in memory. */
  buffered: Map<Database, Set<Flush>>;
  exitHooked: boolean;
}

// One registry per process, like the database handle: Next.js may load this module once per bundle, and the
// registry must see every buffer of the process.
const registry = processWide("writeBehind", (): Registry => ({ buffered: new Map(), exitHooked: false }));

/** One value per database handle and process (shared by every bundle), made on first use. */
export function perDatabase<T>(name: string, create: (db: Database) => T): (db: Database) => T {
  const values = processWide(name, () => new WeakMap<Database, T>());
  return (db) => {
    let value = values.get(db);
    if (value === undefined) {
      value = create(db);
      values.set(db, value);
    }
    return value;
  };
}

/** Notes that `flush` has something buffered for the database, until `drained` says otherwise. */
export function buffering(db: Database, flush: Flush) {
  let flushes = registry.buffered.get(db);
  if (!flushes) {
    flushes = new Set();
    registry.buffered.set(db, flushes);
  }
  flushes.add(flush);
  hookExit();
}

export function drained(db: Database, flush: Flush) {
  const flushes = registry.buffered.get(db);
  flushes?.delete(flush);
  if (flushes?.size === 0) registry.buffered.delete(db);
}

/** Writes what is buffered for the database (or for every database of the process) and resolves when written. */
export async function flushBuffered(db?: Database): Promise<void> {
  const entries = db ? [[db, registry.buffered.get(db)] as const] : [...registry.buffered];
  await Promise.all(entries.flatMap(([, flushes]) => [...(flushes ?? [])].map((flush) => flush())));
}

// A database that does not answer must not keep a stopping process alive forever.
const EXIT_FLUSH_TIMEOUT_MS = 5_000;

function flushBeforeExit(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, EXIT_FLUSH_TIMEOUT_MS);
  });
  return Promise.race([flushBuffered().catch(() => {}), timeout]).finally(() => clearTimeout(timer));
}

function hookExit() {
  if (registry.exitHooked) return;
  registry.exitHooked = true;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Another handler (Next.js's server) finishes the requests in flight and then calls process.exit: the exit
    // waits for a last flush, which also takes the calls those requests recorded.
    const exit = process.exit.bind(process);
    process.exit = ((code?: number) => {
      void flushBeforeExit().finally(() => exit(code));
    }) as typeof process.exit;
    const alone = process.listenerCount(signal) === 1;
    void flushBeforeExit().finally(() => {
      if (!alone) return;
      // Nobody else handles the signal: end the way it would have ended the process without this handler.
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      process.kill(process.pid, signal);
    });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}

/**
 * Runs `write` one at a time for a buffer: a flush asked for while one runs waits for it, then runs once for
 * everyone who asked meanwhile (it takes all that is buffered). `schedule` asks for one after `intervalMs`,
 * without keeping the process alive: a stop signal or closing the database writes what is left.
 */
export function serialFlusher(
  write: () => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
) {
  let running: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): Promise<void> => {
    if (next) return next;
    const run = running
      .then(() => {
        next = undefined;
        return write();
      })
      .catch(onError);
    next = run;
    running = run;
    return run;
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, intervalMs);
    timer.unref();
  };
  return { flush, schedule };
}
