import * as schema from "@/db/schema";
import { startOAuthMcpServer } from "../../tests/fixtures/mcp/oauth-server";
import { openBenchDatabase } from "../embedded-database";
import { percentile, printTable, result, sample } from "../stats";

/**
 * What OAuth costs per call: p50/p99 of a tool call (the tool runner's path: use case, pooled session) on an
 * OAuth integration, whose token is read from the database for every request, against the same server reached
 * as a bearer-token integration with the same access token; then the time for 20 concurrent calls that all
 * meet a rejected token and share one refresh.
 */
process.env.MCP_ALLOW_PRIVATE_NETWORKS = "true";
process.env.LOG_LEVEL = "silent";
const CALLS = Number(process.env.BENCH_CALLS ?? 300);

const handle = await openBenchDatabase();

// Loaded after the environment above is set, since the app reads it once.
const { registerUser } = await import("@/lib/auth/users");
const { resolveUserContext } = await import("@/lib/auth/context");
const { createIntegration } = await import("@/lib/mcp/integrations/create-integration");
const { runIntegrationTool } = await import("@/lib/tools/integration-tool-run");
const { startOAuthConnection, finishOAuthConnection } = await import("@/lib/mcp/oauth/oauth-flow");
const { decryptSecret } = await import("@/lib/crypto/secret-box");
const { getMcpClient } = await import("@/lib/mcp/client/shared-client");

const server = await startOAuthMcpServer();
const db = handle.db;
try {
  const { user } = await registerUser(db, {
    name: "Bench",
    email: "bench@example.com",
    password: "bench bench",
  });
  const ctx = await resolveUserContext(db, { userId: user.id });
  const oauth = await createIntegration(db, ctx, {
    source: "custom",
    name: "OAuth",
    transport: "streamable-http",
    url: server.url,
    authType: "oauth",
  });
  const redirectUrl = "http://localhost:3000/api/oauth/callback";
  const { authorizationUrl } = await startOAuthConnection(db, ctx, oauth.id, {
    personal: false,
    redirectUrl,
  });
  const back = new URL((await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location") ?? "");
  await finishOAuthConnection(db, ctx, {
    state: back.searchParams.get("state") ?? "",
    code: back.searchParams.get("code") ?? "",
  });
  const [credential] = await db.select().from(schema.mcpOAuthCredentials);
  const bearer = await createIntegration(db, ctx, {
    source: "custom",
    name: "Bearer",
    transport: "streamable-http",
    url: server.url,
    authType: "bearer",
    token: decryptSecret(credential?.accessTokenEncrypted ?? ""),
  });

  const call = (id: string) => async () => {
    const outcome = await runIntegrationTool(db, ctx, id, "echo", { message: "hi" });
    if (outcome.isError) throw new Error(outcome.errorMessage);
  };
  // Alternating rounds, so both see the same machine at the same moments.
  const times = { oauth: [] as number[], bearer: [] as number[] };
  for (let round = 0; round < 5; round++) {
    times.bearer.push(...(await sample(call(bearer.id), CALLS / 5)));
    times.oauth.push(...(await sample(call(oauth.id), CALLS / 5)));
  }

  server.invalidateAccessTokens();
  server.setRefreshDelay(0);
  const refreshes = server.stats.refreshGrants;
  const started = performance.now();
  await Promise.all(Array.from({ length: 20 }, () => call(oauth.id)()));
  const burstMs = performance.now() - started;
  const burstRefreshes = server.stats.refreshGrants - refreshes;

  const p = (samples: number[], q: number) => percentile(samples, q);
  printTable([
    {
      measurement: "tool call, bearer token",
      p50_ms: p(times.bearer, 50).toFixed(2),
      p99_ms: p(times.bearer, 99).toFixed(2),
    },
    {
      measurement: "tool call, OAuth (token read per request)",
      p50_ms: p(times.oauth, 50).toFixed(2),
      p99_ms: p(times.oauth, 99).toFixed(2),
    },
    {
      measurement: "20 concurrent calls meeting a rejected token",
      p50_ms: burstMs.toFixed(2),
      p99_ms: `${burstRefreshes} refresh`,
    },
  ]);
  result("oauth_call_p50_ms", p(times.oauth, 50));
  result("bearer_call_p50_ms", p(times.bearer, 50));
  result("oauth_vs_bearer_p50", p(times.oauth, 50) / p(times.bearer, 50));
  result("oauth_vs_bearer_p99", p(times.oauth, 99) / p(times.bearer, 99));
  result("burst_refreshes", burstRefreshes);
  result("burst_ms", burstMs);
} finally {
  await getMcpClient().pool.closeAll();
  await server.close();
  await handle.close();
}
