import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiKeys } from "@/db/schema";
import { authenticateApiKey, createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { itOnPostgres } from "./on-postgres";
import { registerOwners } from "./org-users";
import { openSecondInstance } from "./second-instance";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Rae")) as [UserContext];
});
afterAll(() => handle?.close());

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { status?: number }) => error.status ?? 500,
  );

describe("API keys kept in memory", () => {
  it("are refused at once after a revocation on the same instance", async () => {
    const { key, apiKey } = await createApiKey(handle.db, a, { name: "same instance" });
    const auth = () => authenticateApiKey(handle.db, `Bearer ${key}`);
    expect((await auth()).apiKeyId).toBe(apiKey.id);
    expect((await auth()).apiKeyId).toBe(apiKey.id);
    await revokeApiKey(handle.db, a, apiKey.id);
    expect(await statusOf(auth())).toBe(401);
  });

  it("expire on time, read against the clock on every request", async () => {
    const expiresAt = new Date(Date.now() + 60 * 60_000);
    const { key } = await createApiKey(handle.db, a, { name: "expiring", expiresAt });
    const auth = () => authenticateApiKey(handle.db, `Bearer ${key}`);
    expect(await statusOf(auth())).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(expiresAt);
      expect(await statusOf(auth())).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it("note when they were last used at most once a minute, not on every request", async () => {
    const { key, apiKey } = await createApiKey(handle.db, a, { name: "last used" });
    const lastUsed = async () =>
      (await handle.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]?.lastUsedAt?.getTime();
    await authenticateApiKey(handle.db, `Bearer ${key}`);
    const first = await lastUsed();
    expect(first).toBeTypeOf("number");
    await authenticateApiKey(handle.db, `Bearer ${key}`);
    expect(await lastUsed()).toBe(first);
  });

  itOnPostgres(
    "are refused by another instance soon after a revocation there, through the change feed",
    async () => {
      const other = openSecondInstance(handle.db);
      try {
        const { key, apiKey } = await createApiKey(handle.db, a, { name: "two instances" });
        const authOnOther = () => authenticateApiKey(other.db, `Bearer ${key}`);
        // Kept in the other instance's memory: it would keep answering without the database.
        expect(await statusOf(authOnOther())).toBe(200);
        expect(await statusOf(authOnOther())).toBe(200);
        const revoked = performance.now();
        await revokeApiKey(handle.db, a, apiKey.id);
        await expect.poll(() => statusOf(authOnOther()), { timeout: 2000, interval: 5 }).toBe(401);
        const latencyMs = performance.now() - revoked;
        console.log(`[revocation] refused on the other instance ${latencyMs.toFixed(1)} ms after revoking`);
        expect(latencyMs).toBeLessThan(2000);
      } finally {
        await other.close();
      }
    },
  );
});
