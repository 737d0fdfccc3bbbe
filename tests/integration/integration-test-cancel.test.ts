import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as testRoute } from "@/app/api/integrations/[id]/test/route";
import { mcpIntegrations } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { publishCatalogChange } from "@/lib/tools/catalog-changes";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

const session = {} as { ctx: UserContext };
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let slow: RunningFixture;
let fast: RunningFixture;
let quick: RunningFixture;
beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [session.ctx] = (await registerOwners(handle.db, "Tess")) as [UserContext];
  // Two minutes to list its tools, far past this file's time limits: only a cancelled test lets it finish.
  slow = await startFixture("slow-list", { args: ["--delay-ms", "120000"] });
  fast = await startFixture("slow-list", { args: ["--delay-ms", "0"] });
  // Slower than the browser waits, quick enough to finish during the test.
  quick = await startFixture("slow-list", { args: ["--delay-ms", "1500"] });
}, 60_000);
afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await slow?.stop();
  await fast?.stop();
  await quick?.stop();
  useDatabase(undefined);
  await handle?.close();
});

const add = async (url: string) =>
  (
    await createIntegration(handle.db, session.ctx, {
      source: "custom",
      name: "Server",
      transport: "streamable-http",
      url,
    })
  ).id;

const test = (id: string, signal?: AbortSignal) =>
  testRoute(new Request(`http://localhost:3000/api/integrations/${id}/test`, { method: "POST", signal }), {
    params: Promise.resolve({ id }),
  });

const stored = async (id: string) =>
  (await handle.db.select().from(mcpIntegrations).where(eq(mcpIntegrations.id, id)))[0];

it("answers the outcome of a live discovery and stores it", async () => {
  const id = await add(fast.url);
  const response = await test(id);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ ok: true, capabilities: { tools: [{ name: "echo" }] } });
  expect(await stored(id)).toMatchObject({ status: "connected", lastError: null });
});

it("stops when the browser cancels, and stores nothing about the server", async () => {
  // Checked once, then moved to a server that takes two minutes to list.
  const id = await add(fast.url);
  expect((await (await test(id)).json()).ok).toBe(true);
  await handle.db.update(mcpIntegrations).set({ url: slow.url }).where(eq(mcpIntegrations.id, id));
  await publishCatalogChange(handle.db, session.ctx.orgId, { integrationId: id });
  const before = await stored(id);
  const controller = new AbortController();
  const pending = test(id, controller.signal);
  setTimeout(() => controller.abort(), 500);
  const body = await (await pending).json();
  expect(body).toMatchObject({ ok: false, error: "The call was cancelled before the server answered." });
  const after = await stored(id);
  expect(after).toMatchObject({ status: before?.status, lastError: before?.lastError ?? null });
  expect(after?.lastCheckedAt).toEqual(before?.lastCheckedAt);
}, 20_000);

it("a first check the browser stops waiting for still finishes and is stored", async () => {
  const id = await add(quick.url);
  const controller = new AbortController();
  const pending = test(id, controller.signal);
  setTimeout(() => controller.abort(), 200);
  expect(await (await pending).json()).toMatchObject({
    ok: false,
    error: "The call was cancelled before the server answered.",
  });
  await expect.poll(async () => (await stored(id))?.status, { timeout: 10_000 }).toBe("connected");
}, 20_000);

it("refuses an integration of another organization", async () => {
  const [other] = (await registerOwners(handle.db, "Otto")) as [UserContext];
  const id = (
    await createIntegration(handle.db, other, {
      source: "custom",
      name: "Theirs",
      transport: "streamable-http",
      url: fast.url,
    })
  ).id;
  expect((await test(id)).status).toBe(404);
});
