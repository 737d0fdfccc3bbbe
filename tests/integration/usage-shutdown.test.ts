import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openPglite } from "@/db/client";
import { organizations, usageRecords } from "@/db/schema";
import { createTestDatabase } from "./test-db";

const FIXTURE = path.resolve("tests/fixtures/usage/record-usage.ts");
const onPostgres = Boolean(process.env.DATABASE_URL);

let handle: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
beforeAll(async () => {
  if (onPostgres) handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/** Where the child writes: the test's PostgreSQL database and an organization in it, or a PGlite folder. */
async function target(): Promise<{ env: Record<string, string>; dir?: string }> {
  if (!handle) {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "sb-usage-")), "pglite");
    return { env: { PGLITE_DIR: dir, PGLITE_TEMPLATE: inject("pgliteTemplate") }, dir };
  }
  const { database } = (handle.db as unknown as { $client: { options: { database: string } } }).$client
    .options;
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${database}`;
  const [org] = await handle.db
    .insert(organizations)
    .values({ name: "Shutdown", slug: `shutdown-${Date.now()}` })
    .returning({ id: organizations.id });
  return { env: { DATABASE_URL: url.toString(), ORG_ID: org?.id as string } };
}

/** Runs the fixture; `then` stops it with a signal once it has recorded, or has it close its database. */
async function runChild(usages: number, then: "SIGTERM" | "SIGINT" | "close", stop = "") {
  const { env, dir } = await target();
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
    env: { ...process.env, ...env, USAGE_COUNT: String(usages), USAGE_THEN: then, USAGE_STOP: stop },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  let recordedAt = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk;
    if (!recordedAt && out.includes("\n")) {
      recordedAt = performance.now();
      if (then !== "close") child.kill(then);
    }
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const { orgId } = JSON.parse(out.split("\n")[0] ?? "{}") as { orgId: string };
  return { ...exit, orgId, dir, exitedAfterMs: performance.now() - recordedAt };
}

async function usageCount(db: Database, orgId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(usageRecords)
    .where(eq(usageRecords.organizationId, orgId));
  return row?.n ?? 0;
}

async function recordsWritten(run: { orgId: string; dir?: string }) {
  if (handle) return usageCount(handle.db, run.orgId);
  const opened = openPglite(run.dir);
  try {
    return await usageCount(opened.db, run.orgId);
  } finally {
    await opened.close();
  }
}

describe("usage records buffered in memory", () => {
  it("are all written when the process is stopped with SIGTERM, before the next timed flush", async () => {
    const run = await runChild(120, "SIGTERM");
    expect(run.signal).toBe("SIGTERM");
    // Stopped sooner than the half second after which the queue would have been written anyway.
    console.log(`[usage shutdown] SIGTERM: exited ${run.exitedAfterMs.toFixed(0)} ms after recording`);
    expect(await recordsWritten(run)).toBe(120);
  }, 60_000);

  it("are all written when the process is stopped with SIGINT", async () => {
    const run = await runChild(30, "SIGINT");
    expect(run.signal).toBe("SIGINT");
    expect(await recordsWritten(run)).toBe(30);
  }, 60_000);

  it("are all written when another handler (Next.js's server) ends the process after finishing requests", async () => {
    const run = await runChild(25, "SIGTERM", "like-next");
    expect(run.code).toBe(143);
    // The 25 calls and the one that finished after the signal.
    expect(await recordsWritten(run)).toBe(26);
  }, 60_000);

  it("are all written when a script closes its database", async () => {
    const run = await runChild(40, "close");
    expect(run.code).toBe(0);
    expect(await recordsWritten(run)).toBe(40);
  }, 60_000);
});
