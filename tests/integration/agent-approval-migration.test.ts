import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openPostgres, pgliteHandle } from "@/db/client";
import { migrateDatabase, migrationsFolder } from "@/db/migrate";

const APPROVAL_MIGRATION = "0019_agent_tool_approval";

let handle: DatabaseHandle;
let dropDatabase = async () => {};
let before = "";

/** The committed migrations up to, not including, the one that brought approval policies. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return folder;
}

// An empty database of its own: on the PostgreSQL server when DATABASE_URL is set, else an in-memory PGlite.
beforeAll(async () => {
  before = migrationsBefore(APPROVAL_MIGRATION);
  const url = process.env.DATABASE_URL;
  if (!url) {
    handle = pgliteHandle(new PGlite());
    return;
  }
  const name = `switchboard_test_${randomUUID().replaceAll("-", "")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  handle = openPostgres(target.toString(), { max: 2 });
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}, 60_000);
afterAll(async () => {
  await handle?.close();
  await dropDatabase();
  if (before) rmSync(before, { recursive: true, force: true });
});

it("maps agents that asked before every tool to always, and the others to never", async () => {
  await migrateDatabase(handle, before);
  const org = randomUUID();
  await handle.db.execute(sql`insert into organizations (id, slug, name) values (${org}, 'old', 'Old')`);
  await handle.db.execute(sql`
    insert into agents (organization_id, name, require_tool_approval, is_default) values
      (${org}, 'Careful', true, false),
      (${org}, 'Quick', false, false),
      (${org}, 'Assistant', false, true)`);

  await migrateDatabase(handle);

  const rows = await handle.db.execute<{ name: string; tool_approval: string }>(
    sql`select name, tool_approval from agents order by name`,
  );
  const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
  expect(list).toEqual([
    { name: "Assistant", tool_approval: "never" },
    { name: "Careful", tool_approval: "always" },
    { name: "Quick", tool_approval: "never" },
  ]);
  const columns = await handle.db.execute<{ column_name: string }>(
    sql`select column_name from information_schema.columns where table_name = 'agents' and column_name like '%approval%'`,
  );
  const names = (
    Array.isArray(columns) ? columns : (columns as { rows: { column_name: string }[] }).rows
  ).map((column) => column.column_name);
  expect(names).toEqual(["tool_approval"]);
  // A new agent, written without a policy, asks before risky tools.
  await handle.db.execute(sql`insert into agents (organization_id, name) values (${org}, 'New')`);
  const fresh = await handle.db.execute<{ tool_approval: string }>(
    sql`select tool_approval from agents where name = 'New'`,
  );
  expect((Array.isArray(fresh) ? fresh : (fresh as { rows: unknown[] }).rows)[0]).toEqual({
    tool_approval: "risky",
  });
}, 60_000);
