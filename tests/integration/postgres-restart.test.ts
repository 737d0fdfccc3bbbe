import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { GET as healthRoute } from "@/app/api/health/route";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { authenticateApiKey, createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { type RunningFixture, startFixture } from "../fixtures/mcp/start-fixture";
// Named for what it does here: it is no React hook.
import { useDatabase as routesUse } from "./gateway-client";
import { registerOwners } from "./org-users";
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from "./private-postgres";
import { restInvoke } from "./rest-client";
import { addTestedIntegration } from "./tested-integration";
import { usageRecordsOf } from "./usage-records";

// The REST route is called with an API key; its session branch (next-auth, which needs Next's runtime) is not used.
vi.mock("@/lib/auth/request-context", () => ({ getUserContext: async () => null }));

// A server of the test's own, so stopping it disturbs no other test's database.
let server: PrivatePostgres | undefined;
let app: DatabaseHandle;
let other: DatabaseHandle;
let echo: RunningFixture;
let a: UserContext;
let key: string;

// CI has Debian's PostgreSQL programs; elsewhere a machine without them skips this test.
const installed = Boolean(postgresBin());
if (!installed && process.env.CI)
  throw new Error("PostgreSQL's programs (initdb, pg_ctl) are not installed.");

beforeAll(async () => {
  if (!installed) return;
  server = await startPrivatePostgres();
  if (server) await openApp(server.url);
}, 60_000);

/** Two app instances on the server, the first one the routes'; an organization with an integration and a key. */
async function openApp(url: string) {
  app = openPostgres(url, { max: 4 });
  await migrateDatabase(app);
  routesUse(app);
  other = openPostgres(url, { max: 2 });
  [a] = (await registerOwners(app.db, "Pat")) as [UserContext];
  echo = await startFixture("echo");
  await addTestedIntegration(app.db, a, { name: "Echo", url: echo.url });
  key = (await createApiKey(app.db, a, { name: "load" })).key;
}

afterAll(async () => {
  await getMcpClient().pool.closeAll();
  await echo?.stop();
  routesUse(undefined);
  await other?.close().catch(() => {});
  await app?.close().catch(() => {});
  await server?.remove();
});

const invoke = async (message: string) => (await restInvoke(key, "echo_echo", { message })).status;

const health = async () =>
  (await healthRoute(new Request("http://localhost:3000/api/health"), { params: Promise.resolve({}) }))
    .status;

// Its own server, whatever database the other tests use: it runs on both passes of `npm test`.
it.skipIf(!installed)(
  "keeps serving through a restart of PostgreSQL under load, reconnects by itself, and loses no usage record",
  async () => {
    if (!server) throw new Error("the PostgreSQL server did not start");
    const statuses: number[] = [];
    let running = true;
    // Four callers, one after another each, for as long as the test runs.
    const load = Promise.all(
      [1, 2, 3, 4].map(async (worker) => {
        for (let i = 0; running; i++) {
          statuses.push(await invoke(`${worker}-${i}`));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Another instance has the key in memory.
    expect((await authenticateApiKey(other.db, `Bearer ${key}`)).orgId).toBe(a.orgId);

    await server.stop();
    const downAt = statuses.length;
    expect(await health()).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const duringDown = statuses.slice(downAt);
    await server.start();
    const startedAt = performance.now();
    // Back by itself: the same handles, no restart of the app.
    await expect.poll(health, { timeout: 15_000 }).toBe(200);
    const healthyAfterMs = performance.now() - startedAt;
    const backAt = statuses.length;
    await expect
      .poll(() => statuses.slice(backAt).filter((status) => status === 200).length, { timeout: 15_000 })
      .toBeGreaterThan(8);
    running = false;
    await load;
    const count = (list: number[]) =>
      [...new Set(list)].map((status) => `${list.filter((one) => one === status).length}×${status}`);
    console.log(
      `[postgres restart] calls while down: ${count(duringDown).join(", ")}; healthy ${Math.round(healthyAfterMs)} ms after it started; after: ${count(statuses.slice(backAt)).join(", ")}`,
    );

    // While it was down, some calls still answered (the key and the catalog were in memory) and the rest failed
    // with a clear status at once; none hung.
    expect(duringDown.length).toBeGreaterThan(0);
    for (const status of duringDown) expect([200, 503]).toContain(status);
    // Every call that answered is recorded once: those made while it was down were kept and written after.
    const answered = statuses.filter((status) => status === 200).length;
    const records = await usageRecordsOf(app.db, a.orgId, "rest", "echo_echo");
    expect(records.filter((record) => record.outcome === "ok")).toHaveLength(answered);

    // The change feed is back too: a revocation made now reaches the other instance.
    const keys = await createApiKey(app.db, a, { name: "after the restart" });
    expect((await authenticateApiKey(other.db, `Bearer ${keys.key}`)).orgId).toBe(a.orgId);
    await revokeApiKey(app.db, a, keys.apiKey.id);
    await expect
      .poll(
        () =>
          authenticateApiKey(other.db, `Bearer ${keys.key}`).then(
            () => 200,
            () => 401,
          ),
        { timeout: 5000 },
      )
      .toBe(401);
  },
  90_000,
);
