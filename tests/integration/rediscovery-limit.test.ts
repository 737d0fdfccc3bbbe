import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpIntegrations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { listTools } from "@/lib/tools/catalog";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

process.env.DISCOVERY_CONCURRENCY = "2";
process.env.DISCOVERY_BUDGET_MS = "300";

/**
 * A server behind every integration of these tests: each integration has its own path, and every request is held
 * a while before a 404 (so each discovery fails, after trying SSE too). It notes how many integrations it was
 * talking to at once.
 */
function countingServer() {
  const open = new Map<string, number>();
  const seen = new Set<string>();
  let most = 0;
  const server = createServer((req, res) => {
    const integration = req.url?.split("/")[1] ?? "";
    seen.add(integration);
    open.set(integration, (open.get(integration) ?? 0) + 1);
    most = Math.max(most, open.size);
    req.resume();
    setTimeout(() => {
      const left = (open.get(integration) ?? 1) - 1;
      if (left > 0) open.set(integration, left);
      else open.delete(integration);
      res.writeHead(404).end();
    }, 150);
  });
  return {
    server,
    seen,
    most: () => most,
    reset: () => {
      seen.clear();
      most = 0;
    },
  };
}

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let owner: UserContext;
let counting: ReturnType<typeof countingServer>;
let base: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  [owner] = (await registerOwners(handle.db, "Owner")) as [UserContext];
  counting = countingServer();
  await new Promise<void>((resolve) => counting.server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(counting.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await new Promise((resolve) => (counting.server as Server).close(resolve));
  await handle?.close();
});

async function addIntegrations(prefix: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const added = await createIntegration(handle.db, owner, {
      source: "custom",
      name: `${prefix} ${n}`,
      transport: "streamable-http",
      url: `${base}/${prefix}-${n}/mcp`,
    });
    ids.push(added.id);
  }
  return ids;
}

const checkedCount = async (ids: string[]) =>
  (
    await handle.db
      .select({ lastCheckedAt: mcpIntegrations.lastCheckedAt })
      .from(mcpIntegrations)
      .where(inArray(mcpIntegrations.id, ids))
  ).filter((row) => row.lastCheckedAt !== null).length;

describe("discoveries started by listings", () => {
  it("run at most DISCOVERY_CONCURRENCY at once for integrations never discovered", async () => {
    counting.reset();
    const ids = await addIntegrations("fresh", 6);
    await listTools(handle.db, owner);
    await expect.poll(() => checkedCount(ids), { timeout: 15_000 }).toBe(6);
    expect(counting.seen.size).toBe(6);
    expect(counting.most()).toBe(2);
  });

  it("run at most DISCOVERY_CONCURRENCY at once when a listing finds many integrations stale", async () => {
    const ids = await addIntegrations("stale", 6);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const id of ids) {
      await handle.db
        .update(mcpIntegrations)
        .set({
          status: "connected",
          lastCheckedAt: hourAgo,
          discovered: {
            tools: [{ name: "ping", inputSchema: { type: "object" } }],
            resources: [],
            prompts: [],
          },
        })
        .where(eq(mcpIntegrations.id, id));
    }
    // Written by hand: the catalog, which keeps the organization's integrations in memory, must be told.
    await publishCatalogChange(handle.db, owner.orgId);
    counting.reset();
    const names = (await listTools(handle.db, owner)).map((tool) => tool.name);
    // The listing answers from the stored discovery at once; the rediscoveries run behind it, two at a time.
    expect(names).toEqual(expect.arrayContaining(ids.map((_, n) => `stale_${n}_ping`)));
    await expect
      .poll(
        async () =>
          (
            await handle.db
              .select({ status: mcpIntegrations.status })
              .from(mcpIntegrations)
              .where(inArray(mcpIntegrations.id, ids))
          ).filter((row) => row.status === "failing").length,
        { timeout: 15_000 },
      )
      .toBe(6);
    expect(counting.seen.size).toBe(6);
    expect(counting.most()).toBe(2);
  });
});
