import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import type { ProcessLimits } from "@/lib/mcp/client/process-slots";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import type { UpstreamClient } from "@/lib/mcp/client/upstream-client";
import { McpConnectionError, McpProcessLimitError } from "@/lib/mcp/errors";
import type { McpConnectionConfig } from "@/lib/mcp/types";

// A small real stdio server with a `pid` tool (and a `crash` one), started as its own Node.js process.
const FIXTURE = path.resolve("tests/fixtures/mcp/stdio-crash.ts");

const pools: McpSessionPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.closeAll()));
});

function poolWith(limits: ProcessLimits) {
  const pool = new McpSessionPool({ idleMs: 60_000, limits });
  pools.push(pool);
  return { pool, client: new SdkMcpClient(pool) };
}

/** A stdio integration of the organization, each call a new integration. */
const server = (orgId: string): Extract<McpConnectionConfig, { transport: "stdio" }> => ({
  integrationId: randomUUID(),
  orgId,
  timeoutMs: 20_000,
  transport: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", FIXTURE],
  env: {},
});

const textOf = (result: object) =>
  (("content" in result ? (result.content as { text?: string }[] | null) : null) ?? [])
    .map((part) => part.text ?? "")
    .join("");

async function pidOf(client: UpstreamClient): Promise<number> {
  return Number(textOf(await client.callTool({ name: "pid", arguments: {} })));
}

/** The server's pid, through an ordinary pooled call (which leaves its process idle). */
async function pidThrough(client: SdkMcpClient, config: McpConnectionConfig): Promise<number> {
  return Number(textOf(await client.executeTool(config, "pid", {})));
}

/** Keeps a call in flight on the server's session (so its process is busy) until released. */
async function hold(pool: McpSessionPool, config: McpConnectionConfig) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let opened = (_pid: number) => {};
  const pid = new Promise<number>((resolve) => {
    opened = resolve;
  });
  const call = pool.withSession(config, async (session) => {
    opened(await pidOf(session.client));
    await gate;
  });
  return {
    pid: await Promise.race([pid, call.then(() => -1)]),
    release: async () => {
      release();
      await call.catch(() => {});
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The fixture servers this test process runs right now, read from /proc: live children, not the pool's count. */
function liveServers(): number {
  let count = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) !== process.pid || state === "Z") continue;
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(FIXTURE)) count++;
    } catch {
      // The process exited while being read.
    }
  }
  return count;
}

/** Runs work while sampling the live servers; answers the most seen at once. */
async function mostLiveDuring<T>(work: () => Promise<T>): Promise<{ result: T; most: number }> {
  let most = liveServers();
  const sampler = setInterval(() => {
    most = Math.max(most, liveServers());
  }, 5);
  try {
    const result = await work();
    return { result, most: Math.max(most, liveServers()) };
  } finally {
    clearInterval(sampler);
  }
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );
}

const ORG_LIMIT_MESSAGE =
  "This organization already runs 2 local MCP server processes, the limit set by MCP_MAX_PROCESSES_PER_ORG, and none is idle. Disable an integration or raise the limit.";
const SERVER_LIMIT_MESSAGE =
  "This server already runs 2 local MCP server processes, the limit set by MCP_MAX_PROCESSES, and none is idle. Try again shortly, or ask the operator to raise the limit.";

describe.runIf(process.platform === "linux")("limits on local server processes", () => {
  it("refuses one more busy server than the organization's limit with a message that names it, while another organization still connects", async () => {
    const { pool, client } = poolWith({ total: 10, perOrganization: 2 });
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const held = [await hold(pool, server(orgA)), await hold(pool, server(orgA))];

    const refused = await failure(client.executeTool(server(orgA), "pid", {}));
    expect(refused).toBeInstanceOf(McpProcessLimitError);
    expect(refused.message).toBe(ORG_LIMIT_MESSAGE);
    expect(await pidThrough(client, server(orgB))).toBeGreaterThan(0);

    expect([pool.processCount(orgA), pool.processCount(orgB), pool.processCount()]).toEqual([2, 1, 3]);
    expect(liveServers()).toBe(3);
    await Promise.all(held.map((h) => h.release()));
  });

  it("refuses one more busy server than the server's limit, whatever its organization", async () => {
    const { pool, client } = poolWith({ total: 2, perOrganization: 0 });
    const held = [await hold(pool, server(randomUUID())), await hold(pool, server(randomUUID()))];

    const refused = await failure(client.listFeatures(server(randomUUID())));
    expect(refused).toBeInstanceOf(McpProcessLimitError);
    expect(refused.message).toBe(SERVER_LIMIT_MESSAGE);
    expect(liveServers()).toBe(2);
    await Promise.all(held.map((h) => h.release()));
  });

  it("closes the organization's least recently used idle server to make room, never another organization's", async () => {
    const { pool, client } = poolWith({ total: 10, perOrganization: 2 });
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const otherOrg = await pidThrough(client, server(orgB));
    const first = server(orgA);
    const second = server(orgA);
    const firstPid = await pidThrough(client, first);
    const secondPid = await pidThrough(client, second);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await pidThrough(client, first)).toBe(firstPid);

    const thirdPid = await pidThrough(client, server(orgA));

    expect(alive(secondPid)).toBe(false);
    expect([alive(firstPid), alive(otherOrg), alive(thirdPid)]).toEqual([true, true, true]);
    expect(pool.processCount(orgA)).toBe(2);
    expect(liveServers()).toBe(3);
    // The closed one starts again when used, in the place of the now least recently used.
    expect(await pidThrough(client, second)).not.toBe(secondPid);
    expect(alive(firstPid)).toBe(false);
  });

  it("closes the least recently used idle server of any organization at the server's limit", async () => {
    const { pool, client } = poolWith({ total: 2, perOrganization: 0 });
    const oldest = await pidThrough(client, server(randomUUID()));
    const newer = await pidThrough(client, server(randomUUID()));

    await pidThrough(client, server(randomUUID()));

    expect([alive(oldest), alive(newer)]).toEqual([false, true]);
    expect(pool.processCount()).toBe(2);
    expect(liveServers()).toBe(2);
  });

  it("frees the place of a closed integration, and of a server that exits on its own", async () => {
    const { pool, client } = poolWith({ total: 10, perOrganization: 1 });
    const orgA = randomUUID();
    const first = server(orgA);
    const held = await hold(pool, first);
    expect(await failure(client.executeTool(server(orgA), "pid", {}))).toBeInstanceOf(McpProcessLimitError);

    // What disabling, editing or deleting the integration does.
    await pool.closeIntegration(first.integrationId);
    expect(alive(held.pid)).toBe(false);
    expect(pool.processCount(orgA)).toBe(0);
    await held.release();

    const crashing = server(orgA);
    const crashingHeld = await hold(pool, crashing);
    expect(pool.processCount(orgA)).toBe(1);
    expect(await failure(client.executeTool(crashing, "crash", {}))).toBeInstanceOf(McpConnectionError);
    await crashingHeld.release();
    expect(alive(crashingHeld.pid)).toBe(false);
    expect([pool.processCount(orgA), liveServers()]).toEqual([0, 0]);
    expect(await pidThrough(client, server(orgA))).toBeGreaterThan(0);
  });

  it("lets an edited integration's new server take the place of its old one", async () => {
    const { client } = poolWith({ total: 10, perOrganization: 1 });
    const before = server(randomUUID());
    const oldPid = await pidThrough(client, before);

    const { result: newPid, most } = await mostLiveDuring(() =>
      pidThrough(client, { ...before, env: { EDITED: "yes" } }),
    );

    expect(newPid).not.toBe(oldPid);
    expect(alive(oldPid)).toBe(false);
    expect(most).toBe(1);
  });

  it("never runs more servers than the limits, however many start at once", async () => {
    const { pool } = poolWith({ total: 3, perOrganization: 2 });
    const [orgA, orgB, orgC] = [randomUUID(), randomUUID(), randomUUID()];
    const orgs = [orgA, orgA, orgA, orgB, orgB, orgB, orgC, orgC];

    const { result: settled, most } = await mostLiveDuring(() =>
      Promise.allSettled(orgs.map((org) => hold(pool, server(org)))),
    );

    const started = settled.flatMap((outcome, index) =>
      outcome.status === "fulfilled" ? [{ org: orgs[index], ...outcome.value }] : [],
    );
    const refusals = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
    expect(started).toHaveLength(3);
    expect(started.filter((s) => s.org === orgA).length).toBeLessThanOrEqual(2);
    expect(refusals.every((reason) => reason instanceof McpProcessLimitError)).toBe(true);
    expect(most).toBeLessThanOrEqual(3);
    expect([pool.processCount(), liveServers()]).toEqual([3, 3]);
    await Promise.all(started.map((s) => s.release()));
  }, 60_000);

  it("lets concurrent starts take the places of idle servers one for one, never exceeding the limit", async () => {
    const { pool, client } = poolWith({ total: 3, perOrganization: 0 });
    const idle = [];
    for (let i = 0; i < 3; i++) idle.push(await pidThrough(client, server(randomUUID())));

    const { result: settled, most } = await mostLiveDuring(() =>
      Promise.allSettled([1, 2, 3, 4, 5].map(() => hold(pool, server(randomUUID())))),
    );

    const started = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const refusals = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
    expect(started).toHaveLength(3);
    expect(refusals).toHaveLength(2);
    expect(refusals.every((reason) => reason instanceof McpProcessLimitError)).toBe(true);
    expect(idle.map(alive)).toEqual([false, false, false]);
    expect(most).toBeLessThanOrEqual(3);
    expect([pool.processCount(), liveServers()]).toEqual([3, 3]);
    await Promise.all(started.map((s) => s.release()));
  }, 60_000);
});
