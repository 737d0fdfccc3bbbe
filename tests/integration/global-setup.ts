import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openPglite } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

/** Migrates one PGlite database and hands its dump to every test file, which then starts in a fraction of the time. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log("[integration] running on PostgreSQL (DATABASE_URL is set)");
    return;
  }
  console.log("[integration] running on PGlite (set DATABASE_URL to run on PostgreSQL)");
  const handle = openPglite();
  await migrateDatabase(handle);
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
  const dump = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
  await handle.close();
  const file = path.join(tmpdir(), `switchboard-pglite-template-${process.pid}.tar`);
  writeFileSync(file, dump);
  project.provide("pgliteTemplate", file);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
