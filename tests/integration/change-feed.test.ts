import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onChange, publishChange } from "@/db/change-feed";
import { openPostgres } from "@/db/client";
import { itOnPostgres } from "./on-postgres";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const heard = (list: string[], payload: string) =>
  expect.poll(() => list.includes(payload), { timeout: 5000 }).toBe(true);

describe("change feed", () => {
  it("tells this process at once and again when the transaction commits, not before", async () => {
    const got: string[] = [];
    const stop = await onChange(handle.db, "switchboard_catalog", (payload) => got.push(payload));
    await handle.db.transaction(async (tx) => {
      await publishChange(handle.db, "switchboard_catalog", "org-1", tx);
      expect(got).toEqual(["org-1"]);
    });
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(2);
    stop();
    await publishChange(handle.db, "switchboard_catalog", "org-2");
    expect(got).not.toContain("org-2");
  });

  it("keeps channels apart", async () => {
    const keys: string[] = [];
    const stop = await onChange(handle.db, "switchboard_api_keys", (payload) => keys.push(payload));
    await publishChange(handle.db, "switchboard_access", "user-1");
    await publishChange(handle.db, "switchboard_api_keys", "key-1");
    await heard(keys, "key-1");
    expect(keys).not.toContain("user-1");
    stop();
  });

  itOnPostgres("reaches another instance on the same PostgreSQL, and not one rolled back", async () => {
    const { database } = (handle.db as unknown as { $client: { options: { database: string } } }).$client
      .options;
    const target = new URL(process.env.DATABASE_URL as string);
    target.pathname = `/${database}`;
    const other = openPostgres(target.toString(), { max: 1 });
    try {
      const got: string[] = [];
      await onChange(other.db, "switchboard_api_keys", (payload) => got.push(payload));
      await handle.db
        .transaction(async (tx) => {
          await publishChange(handle.db, "switchboard_api_keys", "rolled-back", tx);
          throw new Error("roll back");
        })
        .catch(() => undefined);
      await publishChange(handle.db, "switchboard_api_keys", "key-2");
      await heard(got, "key-2");
      expect(got).toEqual(["key-2"]);
    } finally {
      await other.close();
    }
  });
});
