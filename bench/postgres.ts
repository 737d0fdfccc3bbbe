import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/** DATABASE_URL, or a clear message and exit: the benchmarks that measure the deployed app run on PostgreSQL. */
export function requireDatabaseUrl(bench: string): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(`bench/${bench} runs on PostgreSQL: set DATABASE_URL=postgres://…`);
    process.exit(2);
  }
  return url;
}

/** Work done in a database, from PostgreSQL's statistics (every connection's, the app's included). */
export interface DatabaseActivity {
  /** Committed and rolled-back transactions: one per statement outside an explicit transaction. */
  transactions: number;
  rowsWritten: number;
}

// A busy connection reports its counts at most once a second, an idle one within 10 s.
const STATS_SETTLE_MS = 10_500;

export interface BenchDatabase {
  name: string;
  /** The new database's URL, for the app instances. */
  url: string;
  /**
   * The database's counters so far, once every connection has reported: it waits for that first, so call it
   * when the load on the database has stopped.
   */
  settledActivity(): Promise<DatabaseActivity>;
  /** The bench's own connection to it, for seeding. */
  handle: DatabaseHandle;
  /** Closes the bench's connection and drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * A migrated database of its own on the server of `serverUrl`, as a fresh installation has: nothing left over by
 * earlier runs (usage records, rate-limit counters, integrations a background job would visit) weighs on this one.
 */
export async function createBenchDatabase(serverUrl: string, label: string): Promise<BenchDatabase> {
  const name = `switchboard_bench_${label}_${randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const handle = openPostgres(target.toString(), { max: 4 });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  };
  try {
    await migrateDatabase(handle);
  } catch (error) {
    await drop();
    throw error;
  }
  const settledActivity = async () => {
    await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
    const [row] = await admin<{ transactions: string; rows_written: string }[]>`
      select xact_commit + xact_rollback as transactions, tup_inserted + tup_updated + tup_deleted as rows_written
      from pg_stat_database where datname = ${name}`;
    return { transactions: Number(row?.transactions), rowsWritten: Number(row?.rows_written) };
  };
  return { name, url: target.toString(), handle, settledActivity, drop };
}
