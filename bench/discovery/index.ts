import { randomUUID } from "node:crypto";
import type { McpIntegrationRow } from "@/db/schema";
import type { RequestContext } from "@/lib/auth/context";
import {
  type ConversationStartDeps,
  discoverForConversation,
  type IntegrationInfo,
} from "@/lib/chat/conversation-start";
import { createLogger } from "@/lib/logger";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import type { McpIntegrationsRepositoryPort } from "@/lib/mcp/repository";
import { DiscoverMcpFeatures } from "@/lib/mcp/use-cases/discover-mcp-features";
import { errorResult } from "@/lib/tools/types";
import { startFixture } from "../../tests/fixtures/mcp/start-fixture";
import { makeIntegration } from "../../tests/unit/mcp/fakes";
import { percentile, printTable, result } from "../stats";

/**
 * Conversation-start discovery over 10 integrations whose servers take 100 ms to list their tools: our
 * parallel discovery against a sequential loop, and with one integration hanging: bounded by its timeout when
 * the start budget is longer (the default), by the start budget when it is shorter.
 */
const COUNT = 10;
const TIMEOUT_MS = 1000;
/** The start budget of the first runs: DISCOVERY_BUDGET_MS's default, longer than the servers' timeout. */
const BUDGET_MS = 3000;
/** A start budget shorter than the timeout, for the last run. */
const SHORT_BUDGET_MS = 250;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const orgId = randomUUID();
const ctx: RequestContext = { userId: "bench", orgId, role: "member", isSuperadmin: false };

const slow = await startFixture("slow-list", { args: ["--delay-ms", "100"] });
const hang = await startFixture("hang");
try {
  const row = (url: string, index: number): McpIntegrationRow =>
    makeIntegration({
      id: randomUUID(),
      authType: "none",
      credentialsEncrypted: {},
      organizationId: orgId,
      name: `Server ${index}`,
      slug: `server_${index}`,
      url,
      timeoutMs: TIMEOUT_MS,
    });
  const healthy = Array.from({ length: COUNT }, (_, i) => row(slow.url, i));
  const withHung = [...healthy.slice(0, COUNT - 1), row(hang.url, COUNT - 1)];
  const rows = new Map([...healthy, ...withHung].map((r) => [r.id, r]));
  const repository: McpIntegrationsRepositoryPort = {
    findById: async (id) => rows.get(id),
    recordDiscovery: async () => {},
  };
  const client = new SdkMcpClient(new McpSessionPool({ idleMs: 600_000 }));
  const logger = createLogger({}, () => {}, "silent");
  const deps = {
    repository,
    client,
    logger,
    buildConnectionConfig: (r: McpIntegrationRow) => ({
      integrationId: r.id,
      orgId: r.organizationId,
      timeoutMs: r.timeoutMs,
      transport: "streamable-http" as const,
      url: r.url ?? "",
      headers: {},
      allowPrivateNetwork: true,
    }),
  };
  const discover = new DiscoverMcpFeatures(deps);
  const startDeps: ConversationStartDeps = {
    discover,
    // What the app reads from the integration's row: here none was discovered before, so none stands in.
    integrations: async (ids) => {
      const known = new Map<string, IntegrationInfo>();
      for (const id of ids) {
        const r = rows.get(id);
        if (r)
          known.set(id, {
            slug: r.slug,
            name: r.name,
            status: r.status,
            lastCheckedAt: r.lastCheckedAt,
            discovered: r.discovered,
          });
      }
      return known;
    },
    // Discovery is what is measured; no tool is called.
    call: async () => errorResult("No tool is called in this benchmark."),
    budgetMs: BUDGET_MS,
    resultBudget: 20_000,
    logger,
  };
  const agent = (list: McpIntegrationRow[]) => ({ id: "bench", mcpIntegrationIds: list.map((r) => r.id) });
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  // Sessions are opened once and pooled, as in the app; the rounds measure discovery itself.
  await discoverForConversation(startDeps, ctx, agent(healthy), []);
  const parallel: number[] = [];
  const sequential: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    parallel.push(await time(() => discoverForConversation(startDeps, ctx, agent(healthy), [])));
    sequential.push(
      await time(async () => {
        for (const r of healthy) await discover.execute(ctx, { integrationId: r.id }).catch(() => null);
      }),
    );
  }
  const hanging: number[] = [];
  let toolsWithHung = 0;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const outcome = await discoverForConversation(startDeps, ctx, agent(withHung), []);
    hanging.push(performance.now() - started);
    toolsWithHung = Object.keys(outcome.tools).length;
  }
  // With a start budget shorter than the timeout the start goes on without the hung server, which is left late.
  const budgeted: number[] = [];
  let toolsWithinBudget = 0;
  let lateWithinBudget = 0;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const outcome = await discoverForConversation(
      { ...startDeps, budgetMs: SHORT_BUDGET_MS },
      ctx,
      agent(withHung),
      [],
    );
    budgeted.push(performance.now() - started);
    toolsWithinBudget = Object.keys(outcome.tools).length;
    lateWithinBudget = outcome.late.length;
    await Promise.all(outcome.late.map((late) => late.outcome));
  }
  await client.pool.closeAll();

  const p50 = (xs: number[]) => percentile(xs, 50);
  printTable([
    {
      run: `parallel, ${COUNT} integrations`,
      p50_ms: p50(parallel).toFixed(1),
      max_ms: Math.max(...parallel).toFixed(1),
    },
    {
      run: `sequential, ${COUNT} integrations`,
      p50_ms: p50(sequential).toFixed(1),
      max_ms: Math.max(...sequential).toFixed(1),
    },
    {
      run: `parallel, 1 of ${COUNT} hanging (timeout ${TIMEOUT_MS} ms; ${toolsWithHung} tools found)`,
      p50_ms: p50(hanging).toFixed(1),
      max_ms: Math.max(...hanging).toFixed(1),
    },
    {
      run: `parallel, 1 of ${COUNT} hanging, start budget ${SHORT_BUDGET_MS} ms (${toolsWithinBudget} tools, ${lateWithinBudget} late)`,
      p50_ms: p50(budgeted).toFixed(1),
      max_ms: Math.max(...budgeted).toFixed(1),
    },
  ]);
  result("parallel_ms", p50(parallel));
  result("sequential_ms", p50(sequential));
  result("speedup", p50(sequential) / p50(parallel));
  result("hanging_ms", p50(hanging));
  result("timeout_ms", TIMEOUT_MS);
  result("budget_hanging_ms", p50(budgeted));
  result("budget_ms", SHORT_BUDGET_MS);
} finally {
  await slow.stop();
  await hang.stop();
}
process.exit(0);
