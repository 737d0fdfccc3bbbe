import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import {
  healthHistory,
  healthStatus,
  recentHealthByIntegration,
  runHealthRound,
} from "@/lib/health/health-round";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let upId: string;
let downId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Hal")) as [UserContext];
  upId = (await createIntegration(handle.db, a, { source: "catalog", presetKey: "everything" })).id;
  downId = (
    await createIntegration(handle.db, a, {
      source: "custom",
      name: "Gone",
      transport: "streamable-http",
      url: "http://no-such-host.invalid/mcp",
      timeoutMs: 2000,
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await handle?.close();
});

describe("background health check", () => {
  it("rediscovers every enabled integration and keeps its status history", async () => {
    const first = new Date("2026-06-01T10:00:00Z");
    expect(await runHealthRound(handle, { intervalMs: 60_000, now: first })).toEqual({
      ran: true,
      checked: 2,
    });
    const [up] = await healthHistory(handle.db, upId);
    const [down] = await healthHistory(handle.db, downId);
    // Answered without error; "degraded" rather than "up" when starting its process took over 5 s on a busy machine.
    expect(up).toMatchObject({ status: expect.stringMatching(/^(up|degraded)$/), error: null });
    expect(down).toMatchObject({ status: "down", error: expect.stringMatching(/Could not find the host/) });
    // The integration's own status follows, where the integrations page shows it.
    expect((await getIntegration(handle.db, a, downId)).status).toBe("failing");
  });

  it("runs once per interval, however many instances ask at the same time", async () => {
    const soon = new Date("2026-06-01T10:00:30Z");
    expect(await runHealthRound(handle, { intervalMs: 60_000, now: soon })).toEqual({
      ran: false,
      checked: 0,
    });
    const later = new Date("2026-06-01T10:05:00Z");
    const rounds = await Promise.all([
      runHealthRound(handle, { intervalMs: 60_000, now: later }),
      runHealthRound(handle, { intervalMs: 60_000, now: later }),
      runHealthRound(handle, { intervalMs: 60_000, now: later }),
    ]);
    expect(rounds.filter((r) => r.ran)).toHaveLength(1);
    expect(await healthHistory(handle.db, upId)).toHaveLength(2);
    const recent = await recentHealthByIntegration(handle.db, a.orgId, 1);
    expect(recent.get(downId)?.map((c) => c.status)).toEqual(["down"]);
    expect(recent.get(upId)?.[0]?.checkedAt).toEqual(later);
  });

  it("calls a slow answer degraded", () => {
    expect(healthStatus(true, 100, 30_000)).toBe("up");
    expect(healthStatus(true, 6000, 30_000)).toBe("degraded");
    expect(healthStatus(true, 1500, 2000)).toBe("degraded");
    expect(healthStatus(false, 10, 30_000)).toBe("down");
  });
});
