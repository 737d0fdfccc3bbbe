import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, usageRecords } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { recordUsage, type UsageEntry } from "@/lib/usage/record-usage";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;
let c: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b, c] = (await registerOwners(handle.db, "Ida", "Jon", "Kit")) as [
    UserContext,
    UserContext,
    UserContext,
  ];
});
afterAll(() => handle?.close());

const call = (tool: string, more: Partial<UsageEntry> = {}): UsageEntry => ({
  surface: "rest",
  tool,
  outcome: "ok",
  latencyMs: 1,
  ...more,
});

/** A payload that counts how often it is serialized, that is scrubbed for recording. */
function watchedPayload() {
  const payload = {
    serialized: 0,
    toJSON() {
      payload.serialized++;
      return { note: "kept" };
    },
  };
  return payload;
}

describe("usage records queued in memory", () => {
  it("are written by themselves within a second", async () => {
    await recordUsage(handle.db, a, call("on_its_own"));
    await expect
      .poll(
        async () =>
          (
            await handle.db
              .select({ n: count() })
              .from(usageRecords)
              .where(eq(usageRecords.tool, "on_its_own"))
          )[0]?.n,
        { timeout: 2000, interval: 50 },
      )
      .toBe(1);
  });

  it("are written in the order of the calls", async () => {
    for (let i = 0; i < 30; i++) await recordUsage(handle.db, a, call(`ordered_${i}`));
    const tools = (await usageRecordsOf(handle.db, a.orgId, "rest"))
      .map((row) => row.tool)
      .filter((tool) => tool.startsWith("ordered_"));
    expect(tools).toEqual(Array.from({ length: 30 }, (_, i) => `ordered_${i}`));
  });

  it("scrub payloads only for an organization that keeps them, and hear at once when that changes", async () => {
    // Once the organization's setting is known (off by default; read in the background by its first call),
    // payloads are not even serialized.
    await expect
      .poll(async () => {
        const unkept = watchedPayload();
        await recordUsage(handle.db, b, call("not_kept", { arguments: unkept }));
        return unkept.serialized;
      })
      .toBe(0);

    await setRecordToolPayloads(handle.db, b, true);
    const kept = watchedPayload();
    await recordUsage(handle.db, b, call("kept", { arguments: kept }));
    expect(kept.serialized).toBe(1);
    const rows = await usageRecordsOf(handle.db, b.orgId, "rest");
    expect(rows.find((row) => row.tool === "kept")?.arguments).toEqual({ note: "kept" });
    expect(rows.find((row) => row.tool === "not_kept")?.arguments).toBeNull();
  });

  it("are written under the setting in force when the call was made, as if written at once", async () => {
    await setRecordToolPayloads(handle.db, b, true);
    await recordUsage(handle.db, b, call("while_kept", { arguments: { note: "kept then" } }));
    await setRecordToolPayloads(handle.db, b, false);
    await recordUsage(handle.db, b, call("after_turned_off", { arguments: { note: "not kept" } }));
    const rows = await usageRecordsOf(handle.db, b.orgId, "rest");
    expect(rows.find((row) => row.tool === "while_kept")?.arguments).toEqual({ note: "kept then" });
    expect(rows.find((row) => row.tool === "after_turned_off")?.arguments).toBeNull();
  });

  it("skip the calls of an organization deleted before they were written, and lose no other", async () => {
    await recordUsage(handle.db, a, call("before_deletion"));
    await recordUsage(handle.db, c, call("of_a_deleted_org"));
    await recordUsage(handle.db, a, call("after_deletion"));
    await handle.db.delete(organizations).where(eq(organizations.id, c.orgId));
    const tools = (await usageRecordsOf(handle.db, a.orgId, "rest")).map((row) => row.tool);
    expect(tools).toEqual(expect.arrayContaining(["before_deletion", "after_deletion"]));
    const [orphans] = await handle.db
      .select({ n: count() })
      .from(usageRecords)
      .where(eq(usageRecords.organizationId, c.orgId));
    expect(orphans?.n).toBe(0);
  });
});
