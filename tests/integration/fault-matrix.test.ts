import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import { chatTurn } from "@/lib/chat/chat-turn";
import { createConversation, loadMessages } from "@/lib/chat/conversations";
import { prepareConversation } from "@/lib/chat/prepare-conversation";
import { AppError } from "@/lib/errors";
import { healthHistory, runHealthRound } from "@/lib/health/health-round";
import { getMcpClient } from "@/lib/mcp/client/shared-client";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import { runIntegrationTool } from "@/lib/tools/integration-tool-run";
import type { ToolResult } from "@/lib/tools/types";
import {
  type FaultKind,
  type RunningFaultServer,
  type RunningFixture,
  startFaultServer,
  startFixture,
} from "../fixtures/mcp/start-fixture";
import { connectGateway, connectPassThrough, textOf, useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { restInvoke } from "./rest-client";
import { createTestDatabase } from "./test-db";
import { addTestedIntegration } from "./tested-integration";
import { usageRecordsOf } from "./usage-records";

const session = {} as { ctx: UserContext };
// The chat's routes ask for the signed-in user; the REST route, called with an API key, asks for none.
vi.mock("@/lib/auth/request-context", () => ({
  requireSignedInUser: async () => session.ctx,
  getUserContext: async () => null,
}));

const TIMEOUT_MS = 2000;
// What "within the integration's timeout" allows for the work around the call (a chat turn, a capability run).
const SLACK_MS = 1500;

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let fault: RunningFaultServer;
let steady: RunningFixture;
let faultyId: string;
let key: string;
const clients: Client[] = [];
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Matrix")) as [UserContext];
  session.ctx = a;
  [fault, steady] = await Promise.all([startFaultServer(), startFixture("echo")]);
  faultyId = await addTestedIntegration(handle.db, a, {
    name: "Faulty",
    url: fault.url,
    timeoutMs: TIMEOUT_MS,
  });
  await addTestedIntegration(handle.db, a, { name: "Steady", url: steady.url });
  // A capability whose code calls the faulty server's tool.
  await createCapability(handle.db, a, {
    namespace: "relay",
    action: "echo",
    description: "Echoes through the faulty server",
    code: "return await tools.call('faulty_echo', { message: args.message });",
    parametersSchema: { type: "object", properties: { message: { type: "string" } } },
  });
  key = (await createApiKey(handle.db, a, { name: "matrix" })).key;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await getMcpClient().pool.closeAll();
  await Promise.all([fault?.stop(), steady?.stop()]);
  useDatabase(undefined);
  await handle?.close();
});

/** How a call went on a surface: answered, or the error its caller read. */
interface Outcome {
  ok: boolean;
  text: string;
}

async function rest(toolName: string, params: Record<string, unknown>): Promise<Outcome> {
  const { status, body } = await restInvoke(key, toolName, params);
  if (status === 200) return { ok: true, text: textOf(body) };
  return { ok: false, text: `${status} ${body.details ?? body.error}` };
}

const fromResult = (result: ToolResult | Awaited<ReturnType<Client["callTool"]>>): Outcome =>
  result.isError ? { ok: false, text: textOf(result) } : { ok: true, text: textOf(result) };

/** A surface, opened before the fault (its clients connected, its conversation started), then called. */
interface Surface {
  name: string;
  open(): Promise<(message: string) => Promise<Outcome>>;
  /** The usage records one call of it writes, by surface and tool. */
  records: [Parameters<typeof usageRecordsOf>[2], string][];
  /** Whether a call of it calls the tool on the server. */
  callsTheTool: boolean;
}

let chatTurns = 0;
let healthRounds = 0;

const surfaces: Surface[] = [
  {
    name: "chat",
    records: [["chat", "faulty_echo"]],
    callsTheTool: true,
    open: async () => {
      const agent = await ensureDefaultAgent(db(), a.orgId);
      const conversation = await createConversation(db(), a, agent.id);
      await prepareConversation(db(), a, conversation);
      return async (message) => {
        const before = await loadMessages(db(), conversation.id);
        const response = await chatTurn(db(), a, {
          id: conversation.id,
          message: {
            id: `turn-${++chatTurns}`,
            role: "user",
            parts: [{ type: "text", text: `/call faulty_echo {"message": "${message}"}` }],
          },
        });
        const events = (await response.text())
          .split("\n")
          .filter((line) => line.startsWith("data: {"))
          .map((line) => JSON.parse(line.slice(6)) as { type: string; output?: ToolResult });
        const output = events.find((event) => event.type === "tool-output-available")?.output;
        // The turn is kept once: the user's message and the assistant's, nothing lost or doubled.
        const after = await loadMessages(db(), conversation.id);
        expect(after.map((stored) => stored.id)).toEqual([
          ...before.map((stored) => stored.id),
          `turn-${chatTurns}`,
          expect.any(String),
        ]);
        if (!output) throw new Error("the turn gave no tool output");
        return fromResult(output);
      };
    },
  },
  {
    name: "REST",
    records: [["rest", "faulty_echo"]],
    callsTheTool: true,
    open: async () => (message) => rest("faulty_echo", { message }),
  },
  {
    name: "gateway",
    records: [["gateway", "faulty_echo"]],
    callsTheTool: true,
    open: async () => {
      const client = await connectGateway(key);
      clients.push(client);
      return async (message) =>
        fromResult(await client.callTool({ name: "faulty_echo", arguments: { message } }));
    },
  },
  {
    name: "pass-through",
    records: [["gateway", "faulty_echo"]],
    callsTheTool: true,
    open: async () => {
      const client = await connectPassThrough("faulty", key);
      clients.push(client);
      return async (message) => fromResult(await client.callTool({ name: "echo", arguments: { message } }));
    },
  },
  {
    name: "tool runner",
    records: [["runner", "faulty_echo"]],
    callsTheTool: true,
    open: async () => async (message) => {
      try {
        return fromResult(await runIntegrationTool(db(), a, faultyId, "echo", { message }));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return { ok: false, text: `${error.status} ${error.message}` };
      }
    },
  },
  {
    name: "capability tools.call",
    records: [
      ["rest", "mcp__relay__echo"],
      ["capability", "faulty_echo"],
    ],
    callsTheTool: true,
    open: async () => (message) => rest("mcp__relay__echo", { message }),
  },
  {
    name: "health check",
    records: [],
    callsTheTool: false,
    open: async () => async () => {
      // Each round as if an interval had passed.
      const now = new Date(Date.UTC(2026, 5, 1) + ++healthRounds * 120_000);
      expect((await runHealthRound(handle, { intervalMs: 60_000, now })).ran).toBe(true);
      const [check] = await healthHistory(db(), faultyId, 1);
      return check?.status === "down"
        ? { ok: false, text: check.error ?? "" }
        : { ok: true, text: check?.status ?? "" };
    },
  },
];

interface Fault {
  name: string;
  apply(): Promise<void>;
  /** What the caller reads: the call answers, or an error matching this. */
  expect: "answers" | RegExp;
  /** Whether the faulted call reaches the server, and may have run there (so it must reach it exactly once). */
  reachesOnce?: boolean;
  /** The cause the integration's state shows after it (on its page and the dashboard). */
  cause?: RegExp;
}

const set = (kind: FaultKind) => () => fault.fault(kind);

const faults: Fault[] = [
  {
    name: "restarts, forgetting its sessions (answering them 400)",
    apply: () => fault.restart(400),
    expect: "answers",
  },
  {
    name: "restarts, forgetting its sessions (answering them 404)",
    apply: () => fault.restart(404),
    expect: "answers",
  },
  { name: "answers slowly", apply: set({ kind: "slow", ms: 600 }), expect: "answers" },
  {
    name: "hangs",
    apply: set({ kind: "hang" }),
    expect: /did not (answer|finish the handshake) within 2 s/,
    cause: /^timed out after 2 s$/,
  },
  {
    name: "crashes mid-call",
    apply: set({ kind: "crash" }),
    expect: /dropped the connection mid-call/,
    reachesOnce: true,
    cause: /^the server dropped the connection mid-call$/,
  },
  {
    name: "ends its answer's stream before the answer",
    apply: set({ kind: "cut-stream" }),
    expect: /ended its answer before answering/,
    reachesOnce: true,
    cause: /^the server ended its answer before answering/,
  },
  { name: "answers garbage", apply: set({ kind: "garbage" }), expect: /not valid MCP/ },
  {
    name: "answers an HTML error page",
    apply: set({ kind: "http-error", status: 502 }),
    expect: /answered HTTP 502 instead of MCP/,
  },
  { name: "refuses connections", apply: () => fault.down(), expect: /connection refused/ },
];

async function mend() {
  await fault.fault({ kind: "none" });
  await fault.up();
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function recordCounts(surface: Surface): Promise<number[]> {
  return Promise.all(
    surface.records.map(async ([where, tool]) => (await usageRecordsOf(db(), a.orgId, where, tool)).length),
  );
}

describe.each(faults)("a server that $name", (faultCase) => {
  it.each(surfaces)(
    "on the $name: a clear error within its timeout (or the answer), nothing else waits, the next call works, nothing recorded twice",
    async (surface) => {
      const call = await surface.open();
      const records = await recordCounts(surface);
      const stats = await fault.stats();
      expect(await call("warm")).toMatchObject({ ok: true });

      const beforeFault = await fault.stats();
      await faultCase.apply();
      // Another integration answers at once meanwhile.
      const [faulted, other] = await Promise.all([
        timed(() => call("faulted")),
        timed(() => rest("steady_echo", { message: "meanwhile" })),
      ]);
      expect(other.value).toEqual({ ok: true, text: "Echo: meanwhile" });
      expect(other.ms).toBeLessThan(1000);
      if (faultCase.expect === "answers") expect(faulted.value.ok).toBe(true);
      else expect(faulted.value).toEqual({ ok: false, text: expect.stringMatching(faultCase.expect) });
      expect(faulted.ms).toBeLessThan(TIMEOUT_MS * (surface.name === "health check" ? 4 : 1) + SLACK_MS);
      // The integration says what happened, where its page and the dashboard read it.
      const { cause } = faultCase;
      if (cause && (surface.callsTheTool || faultCase.expect !== "answers"))
        await expect.poll(async () => (await getIntegration(db(), a, faultyId)).state?.cause).toMatch(cause);
      // A call that may have run is never sent again.
      const reached = (await fault.stats()).received["tools/call echo"] ?? 0;
      if (faultCase.reachesOnce && surface.callsTheTool)
        expect(reached - (beforeFault.received["tools/call echo"] ?? 0)).toBe(1);

      await mend();
      // Back by itself: no call needed while it was failing, and none refused after.
      await expect
        .poll(() => getMcpClient().stateOf(faultyId)?.state, { timeout: 10_000 })
        .not.toMatch(/failing|recovering/);
      expect(await call("after")).toMatchObject({ ok: true });

      // One usage record per call, whatever happened to it; the tool ran once for each call that answered.
      expect(await recordCounts(surface)).toEqual(records.map((count) => count + 3));
      const after = await fault.stats();
      const ran = (after.ran.echo ?? 0) - (stats.ran.echo ?? 0);
      const answered = faultCase.expect === "answers" ? 3 : 2;
      expect(ran).toBe(surface.callsTheTool ? answered : 0);
    },
    30_000,
  );
});
