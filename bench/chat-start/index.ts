import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { eq } from "drizzle-orm";
import * as schema from "@/db/schema";
import { type RunningFixture, startEverything, startFixture } from "../../tests/fixtures/mcp/start-fixture";
import { openBenchDatabase } from "../embedded-database";
import { percentile, printTable, result } from "../stats";

/**
 * Time to the first streamed token of a new conversation's first turn (chatTurn in process: conversation start,
 * live discovery of the default agent's integrations, the real OpenAI provider against the scripted
 * OpenAI-compatible server), for an organization of ten integrations of which one hangs (timeout 30 s), side by
 * side with the same shape of organization with ten healthy ones:
 *   healthy   — ten healthy integrations;
 *   hung      — nine healthy and one hanging that the health check has marked failing (not waited for);
 *   unmarked  — nine healthy and a freshly added hanging one the health check has not seen (waited for up to the
 *               discovery budget).
 * Every repetition starts a new conversation in each organization, in alternating order.
 */
const REPS = Number(process.env.BENCH_REPS ?? 7);
const EVERYTHING_SERVERS = 3;
const HANG_TIMEOUT_MS = 30_000;

const repoRoot = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-bench-chat-start-"));

// The app reads its environment once: everything is set before its modules load.
process.env.MCP_ALLOW_PRIVATE_NETWORKS = "true";
process.env.LOG_LEVEL = "silent";
process.env.HEALTH_CHECK_INTERVAL_MS = "0";
process.env.API_RATE_LIMIT_PER_MINUTE = "0";
// Secrets and anything else the app keeps on disk go to a temporary folder, not the repository's ./.data.
process.env.DATA_DIR = dataDir;
process.env.AUTH_SECRET = randomBytes(32).toString("base64url");
process.env.ENCRYPTION_KEY = randomBytes(32).toString("base64");

const children: ChildProcess[] = [];
const fixtures: RunningFixture[] = [];
process.once("exit", () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** The scripted OpenAI-compatible server as a child process; resolves with its port once it printed LISTENING. */
async function startScriptedModel(): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repoRoot, "tests/fixtures/openai/scripted-server.ts"), "--port", "0"],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  child.on("error", () => {});
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`scripted model server did not start:\n${stderr}`)),
      20_000,
    );
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`scripted model server exited (${signal ?? code}) before listening:\n${stderr}`));
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /^LISTENING (\d+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(timer);
  };
  return { port, stop };
}

const model = await startScriptedModel();
process.env.OPENAI_API_KEY = "sk-bench";
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${model.port}/v1`;
process.env.CHAT_MODEL = "scripted-model";

const handle = await openBenchDatabase();

// Loaded after the environment above is set, since the app reads it once.
const { getEnv } = await import("@/lib/env");
const { resolveUserContext } = await import("@/lib/auth/context");
const { registerUser } = await import("@/lib/auth/users");
const { ensureDefaultAgent } = await import("@/lib/chat/agents");
const { chatTurn } = await import("@/lib/chat/chat-turn");
const { createConversation, getConversation } = await import("@/lib/chat/conversations");
const { runHealthRound } = await import("@/lib/health/health-round");
const { createIntegration } = await import("@/lib/mcp/integrations/create-integration");
const { deleteIntegration } = await import("@/lib/mcp/integrations/delete-integration");
const { getMcpClient } = await import("@/lib/mcp/client/shared-client");
const { mcpIntegrations } = schema;
type UserContext = Awaited<ReturnType<typeof resolveUserContext>>;

const db = handle.db;
const budgetMs = getEnv().DISCOVERY_BUDGET_MS;

interface Org {
  label: string;
  ctx: UserContext;
  agentId: string;
}

async function makeOrg(label: string): Promise<Org> {
  const { user } = await registerUser(db, {
    name: label,
    email: `${label}@bench.example.com`,
    password: `password for ${label}`,
    organizationName: `Bench ${label}`,
  });
  const ctx = await resolveUserContext(db, { userId: user.id });
  const agent = await ensureDefaultAgent(db, ctx.orgId);
  return { label, ctx: { ...ctx, role: "owner", isSuperadmin: false }, agentId: agent.id };
}

async function addIntegration(org: Org, name: string, url: string, timeoutMs?: number) {
  return createIntegration(db, org.ctx, {
    source: "custom",
    name,
    transport: "streamable-http",
    url,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}

interface Turn {
  firstTokenMs: number;
  totalMs: number;
  statuses: Record<string, number>;
}

/** A new conversation with the org's default agent and its first turn: ms to the first text-delta chunk. */
async function firstTurn(org: Org): Promise<Turn> {
  const conversation = await createConversation(db, org.ctx, org.agentId);
  const body = {
    id: conversation.id,
    message: { id: `m-${randomUUID()}`, role: "user", parts: [{ type: "text", text: "hello" }] },
  };
  const abort = new AbortController();
  const started = performance.now();
  let firstTokenMs: number | undefined;
  try {
    const response = await chatTurn(db, org.ctx, body, { signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`chatTurn answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffered = "";
    const problems: string[] = [];
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("data: ")) continue;
        if (firstTokenMs === undefined && line.includes('"type":"text-delta"'))
          firstTokenMs = performance.now() - started;
        if (line.includes('"type":"error"')) problems.push(line);
      }
    }
    const totalMs = performance.now() - started;
    if (problems.length > 0) throw new Error(`the stream reported an error: ${problems.join("\n")}`);
    if (firstTokenMs === undefined) throw new Error("the stream ended without a text-delta chunk");
    const { discovery } = await getConversation(db, org.ctx, conversation.id);
    const statuses: Record<string, number> = {};
    for (const entry of discovery?.integrations ?? [])
      statuses[entry.status] = (statuses[entry.status] ?? 0) + 1;
    return { firstTokenMs, totalMs, statuses };
  } finally {
    abort.abort();
  }
}

let exitCode = 0;
try {
  const everything: RunningFixture[] = [];
  for (let i = 0; i < EVERYTHING_SERVERS; i++) {
    const server = await startEverything("streamableHttp");
    fixtures.push(server);
    everything.push(server);
  }
  const hang = await startFixture("hang");
  fixtures.push(hang);
  const everythingUrl = (i: number) => (everything[i % everything.length] as RunningFixture).url;

  // Three organizations of the same shape: nine healthy integrations each, plus a tenth that differs.
  const healthy = await makeOrg("healthy");
  const hung = await makeOrg("hung");
  const unmarked = await makeOrg("unmarked");
  for (const org of [healthy, hung, unmarked]) {
    for (let i = 0; i < 9; i++) await addIntegration(org, `Everything ${i + 1}`, everythingUrl(i));
  }
  await addIntegration(healthy, "Everything 10", everythingUrl(9));
  const hanging = await addIntegration(hung, "Hanging", hang.url, HANG_TIMEOUT_MS);

  // The health check marks the hanging integration failing the real way: its discovery times out.
  console.log(
    `Running one health round; it ends when the hanging integration times out (${HANG_TIMEOUT_MS / 1000} s)…`,
  );
  const roundStarted = performance.now();
  const round = await runHealthRound(handle, { intervalMs: 60_000 });
  const roundMs = performance.now() - roundStarted;
  const [marked] = await db
    .select({ status: mcpIntegrations.status, lastError: mcpIntegrations.lastError })
    .from(mcpIntegrations)
    .where(eq(mcpIntegrations.id, hanging.id));
  console.log(
    `Health round: ran=${round.ran}, checked ${round.checked} integrations in ${(roundMs / 1000).toFixed(1)} s; ` +
      `the hanging integration is "${marked?.status}" (${marked?.lastError ?? "no error"}).`,
  );
  if (marked?.status !== "failing")
    throw new Error(
      `the health round did not mark the hanging integration failing (status ${marked?.status})`,
    );

  // One untimed turn per organization: sessions open and the model server warms up, as in a running app.
  for (const org of [healthy, hung, unmarked]) await firstTurn(org);

  const times = { healthy: [] as Turn[], hung: [] as Turn[], unmarked: [] as Turn[] };
  let previousUnmarked: string | undefined;
  console.log(
    `Measuring ${REPS} repetitions (each: healthy, hung, unmarked; the last takes about the budget)…`,
  );
  for (let rep = 0; rep < REPS; rep++) {
    // Alternate which goes first, so neither profits from the other's warm-up.
    const pair = rep % 2 === 0 ? (["healthy", "hung"] as const) : (["hung", "healthy"] as const);
    for (const which of pair) times[which].push(await firstTurn(which === "healthy" ? healthy : hung));
    // A hanging integration the health check has not seen yet (status "unknown"), new each repetition.
    if (previousUnmarked) await deleteIntegration(db, unmarked.ctx, previousUnmarked);
    const fresh = await addIntegration(unmarked, `Hanging ${rep + 1}`, hang.url, HANG_TIMEOUT_MS);
    previousUnmarked = fresh.id;
    times.unmarked.push(await firstTurn(unmarked));
    if (process.env.BENCH_VERBOSE)
      console.log(
        `rep ${rep + 1}: ` +
          (["healthy", "hung", "unmarked"] as const)
            .map((which) => `${which} ${times[which][rep]?.firstTokenMs.toFixed(1)} ms`)
            .join(", "),
      );
  }

  const median = (turns: Turn[], pick: (t: Turn) => number) => percentile(turns.map(pick), 50);
  const row = (name: string, turns: Turn[]) => {
    const statuses = turns[turns.length - 1]?.statuses ?? {};
    return {
      organization: name,
      reps: turns.length,
      first_token_p50_ms: Number(median(turns, (t) => t.firstTokenMs).toFixed(1)),
      first_token_min_ms: Number(Math.min(...turns.map((t) => t.firstTokenMs)).toFixed(1)),
      first_token_max_ms: Number(Math.max(...turns.map((t) => t.firstTokenMs)).toFixed(1)),
      full_turn_p50_ms: Number(median(turns, (t) => t.totalMs).toFixed(1)),
      discovery: Object.entries(statuses)
        .map(([status, n]) => `${n} ${status}`)
        .join(", "),
    };
  };
  printTable([
    row("10 healthy", times.healthy),
    row("9 healthy + 1 hanging, marked failing", times.hung),
    row("9 healthy + 1 hanging, not yet checked", times.unmarked),
  ]);
  console.log(`Discovery budget ${budgetMs} ms; hanging integration timeout ${HANG_TIMEOUT_MS} ms.`);
  const healthyMs = median(times.healthy, (t) => t.firstTokenMs);
  const hungMs = median(times.hung, (t) => t.firstTokenMs);
  result("first_token_healthy_ms", healthyMs);
  result("first_token_hung_ms", hungMs);
  result("hung_vs_healthy", hungMs / healthyMs);
  result(
    "first_token_hung_unmarked_ms",
    median(times.unmarked, (t) => t.firstTokenMs),
  );
  result("discovery_budget_ms", budgetMs);
} catch (error) {
  exitCode = 1;
  console.error("chat-start benchmark failed:", error);
} finally {
  // Closing the sessions ends the discoveries still waiting on the hanging server.
  await getMcpClient()
    .pool.closeAll()
    .catch(() => {});
  await Promise.all(fixtures.map((fixture) => fixture.stop()));
  await model.stop();
  // Late discoveries record their outcome as the sessions close; let them finish before the database goes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await handle.close().catch(() => {});
}
process.exit(exitCode);
