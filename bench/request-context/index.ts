import { sql } from "drizzle-orm";
import { openPglite, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { resolveUserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { createOrganization } from "@/lib/orgs/organizations";
import { percentile, printTable, result, sample } from "../stats";

/**
 * What tenancy costs each request: resolving the signed-in user's organization and role from the database,
 * against the cheapest possible round trip (`select 1`) on the same database, side by side.
 */
const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);
const handle = process.env.DATABASE_URL ? openPostgres(process.env.DATABASE_URL) : openPglite();
await migrateDatabase(handle);
const { user } = await registerUser(handle.db, {
  name: "Bench",
  email: `bench-${Date.now()}@example.com`,
  password: "benchmark password",
});
// A user in several organizations, as the heavier case.
for (let i = 0; i < 5; i++) await createOrganization(handle.db, { ownerId: user.id, name: `Bench ${i}` });

const baseline = await sample(() => handle.db.execute(sql`select 1`), iterations);
const context = await sample(() => resolveUserContext(handle.db, { userId: user.id }), iterations);
await handle.close();

const p50 = (xs: number[]) => percentile(xs, 50);
const p99 = (xs: number[]) => percentile(xs, 99);
printTable([
  { run: "select 1 (baseline)", p50_ms: p50(baseline).toFixed(3), p99_ms: p99(baseline).toFixed(3) },
  { run: "resolveUserContext", p50_ms: p50(context).toFixed(3), p99_ms: p99(context).toFixed(3) },
]);
result("context_p50_ms", p50(context));
result("context_vs_baseline_p50", p50(context) / p50(baseline));
