import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Logger } from "drizzle-orm/logger";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { getEnv } from "@/lib/env";
import { metrics } from "@/lib/metrics/metrics";
import { processWide } from "@/lib/process-wide.mjs";
import { tracingOn } from "@/lib/tracing/tracer";
import { observeStatements } from "./observe-statements";
import { acquirePgliteLock } from "./pglite-lock";
import * as schema from "./schema";
import { flushBuffered } from "./write-behind";

export type Schema = typeof schema;
/** One type for both drivers: the app code never knows which database it runs on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Writes what is buffered for the database (usage records, rate-limit counts), then closes it. */
  close(): Promise<void>;
}

/**
 * With metrics on: the pool's size, and a count of every statement sent (drizzle's logger sees each one) and of
 * those in flight. With tracing on, statements get spans.
 */
function databaseObservers(maxConnections: number): { logger?: Logger } {
  const m = metrics();
  if (m || tracingOn()) observeStatements();
  if (!m) return {};
  m.dbPoolSize.set(maxConnections);
  return { logger: { logQuery: () => m.dbQueries.inc() } };
}

/**
 * Seconds before a connection is tried again after the database dropped or refused it: soon, then longer, never
 * over 2 s. (postgres.js's own wait grows to 20 s, counting every refused attempt of the pool: a restart of a few
 * seconds under load would keep the app away for longer than the restart.)
 */
export function reconnectDelay(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.1 * 2 ** retries, 2);
}

/** Opens PostgreSQL through postgres.js. */
export function openPostgres(url: string, options: { max?: number } = {}): DatabaseHandle {
  const max = options.max ?? 10;
  const client = postgres(url, { max, onnotice: () => {}, backoff: reconnectDelay });
  const db = drizzlePostgres({ client, schema, ...databaseObservers(max) }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    close: async () => {
      await flushBuffered(db);
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * Whether the database is the embedded PGlite one: one process, one connection, so row locks would only hold up
 * everyone else and callers skip them.
 */
export function isEmbeddedDatabase(db: Database): boolean {
  return (db as unknown as { $client?: unknown }).$client instanceof PGlite;
}

/** Opens an embedded PGlite database: in a folder (locked to this process) or in memory when no folder is given. */
export function openPglite(dir?: string): DatabaseHandle {
  let release = () => {};
  if (dir) {
    // PGlite opens the folder only if its parent exists.
    mkdirSync(path.dirname(dir), { recursive: true });
    release = acquirePgliteLock(dir);
  }
  return pgliteHandle(new PGlite(dir), release);
}

/** A handle on an opened PGlite client: the one place its drizzle database, observers and closing are made. */
export function pgliteHandle(client: PGlite, release = () => {}): DatabaseHandle {
  const db = drizzlePglite({ client, schema, ...databaseObservers(1) }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    close: async () => {
      await flushBuffered(db);
      await client.close();
      release();
    },
  };
}

/** The database this process is configured for: PostgreSQL with DATABASE_URL, otherwise PGlite under DATA_DIR. */
export function openConfiguredDatabase(): DatabaseHandle {
  const env = getEnv();
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  return openPglite(path.resolve(env.DATA_DIR, "pglite"));
}

const held = () => processWide("database", (): { handle?: DatabaseHandle } => ({}));

/** The process-wide database handle, opened on first use and shared by every bundle of the process. */
export function getDatabase(): DatabaseHandle {
  const holder = held();
  holder.handle ??= openConfiguredDatabase();
  return holder.handle;
}

/** Makes `handle` the process-wide database (tests, with a database of their own), or forgets it (undefined). */
export function useProcessDatabase(handle: DatabaseHandle | undefined): void {
  held().handle = handle;
}

export function getDb(): Database {
  return getDatabase().db;
}
