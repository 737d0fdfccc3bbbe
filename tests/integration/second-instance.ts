import { type Database, type DatabaseHandle, openPostgres } from "@/db/client";

/**
 * Another app instance on the test's PostgreSQL database: connections of its own, and so memory of its own
 * (caches, counters and queues are kept per database handle). Only with DATABASE_URL.
 */
export function openSecondInstance(db: Database): DatabaseHandle {
  const { database } = (db as unknown as { $client: { options: { database: string } } }).$client.options;
  const target = new URL(process.env.DATABASE_URL as string);
  target.pathname = `/${database}`;
  return openPostgres(target.toString(), { max: 2 });
}
