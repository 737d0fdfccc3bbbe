import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as healthRoute } from "@/app/api/health/route";
import { GET as readyRoute } from "@/app/api/ready/route";
import type { DatabaseHandle } from "@/db/client";
import { resetDraining, startDraining } from "@/lib/http/draining.mjs";
import { useDatabase } from "./gateway-client";
import { createTestDatabase } from "./test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

const call = async (route: typeof readyRoute, path: string) => {
  const response = await route(new Request(`http://localhost:3000${path}`), { params: Promise.resolve({}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("readiness", () => {
  it("is ready on a database that holds this release's migrations", async () => {
    expect(await call(readyRoute, "/api/ready")).toEqual({ status: 200, body: { status: "ready" } });
  });

  it("is not ready before the release's migrations have run, and says what to do", async () => {
    const rows = await handle.db.execute(
      sql`delete from drizzle.__drizzle_migrations
          where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning *`,
    );
    const [newest] = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      id: number;
      hash: string;
      created_at: string;
    }[];
    try {
      expect(await call(readyRoute, "/api/ready")).toEqual({
        status: 503,
        body: {
          status: "not_ready",
          reason: "migrations_pending",
          message: "The database needs this release's migrations: run `npm run db:migrate`.",
        },
      });
    } finally {
      await handle.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at)
            values (${newest?.id}, ${newest?.hash}, ${newest?.created_at})`,
      );
    }
    expect((await call(readyRoute, "/api/ready")).status).toBe(200);
  });

  it("answers 503 while the instance drains, while it stays alive", async () => {
    startDraining();
    try {
      expect(await call(readyRoute, "/api/ready")).toMatchObject({
        status: 503,
        body: { reason: "draining" },
      });
      expect((await call(healthRoute, "/api/health")).status).toBe(200);
    } finally {
      resetDraining();
    }
    expect((await call(readyRoute, "/api/ready")).status).toBe(200);
  });
});
