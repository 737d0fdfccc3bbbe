import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { McpSession } from "@/lib/mcp/client/connect";
import { type CallOptions, McpSessionPool } from "@/lib/mcp/client/session-pool";
import { McpCallInterruptedError, McpConnectionError, McpUnavailableError } from "@/lib/mcp/errors";
import type { McpConnectionConfig } from "@/lib/mcp/types";
import { INTEGRATION_ID, ORG_ID } from "./fakes";

const config: McpConnectionConfig = {
  integrationId: INTEGRATION_ID,
  orgId: ORG_ID,
  timeoutMs: 5000,
  transport: "streamable-http",
  url: "https://mcp.example.com/mcp",
  headers: {},
  allowPrivateNetwork: false,
};

const listing: CallOptions = { method: "tools/list", idempotent: true };
const toolCall: CallOptions = { method: "tools/call", idempotent: false };

/** fetch's shape for a network failure, with the errno code inside. */
const network = (code: string) =>
  new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
const forgotten = () =>
  new StreamableHTTPError(
    400,
    'Error POSTing to endpoint: {"error":{"message":"No valid session ID provided"}}',
  );

/** A pool over sessions that need no server: each has a number, and counts how often it was closed. */
function poolOfFakes() {
  const opened: (McpSession & { number: number; closed: number })[] = [];
  const pool = new McpSessionPool({
    idleMs: 60_000,
    open: async () => {
      const session = {
        number: opened.length + 1,
        closed: 0,
        client: { getServerVersion: () => undefined } as unknown as Client,
        era: "legacy" as const,
        transport: "streamable-http" as const,
        sessionId: () => `session-${session.number}`,
        stale: false,
        close: async () => {
          session.closed++;
        },
      };
      opened.push(session);
      return session;
    },
  });
  pools.push(pool);
  return { pool, opened };
}

const pools: McpSessionPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.closeAll()));
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
}

describe("a pooled session the server no longer serves", () => {
  it("is replaced when the server forgot it, and the request is sent again on the new one, even a tool call", async () => {
    const { pool, opened } = poolOfFakes();
    await pool.withSession(config, async () => "first", toolCall);
    const seen: number[] = [];
    const answer = await pool.withSession(
      config,
      async (session) => {
        seen.push((session as (typeof opened)[number]).number);
        if (seen.length === 1) throw forgotten();
        return "answered";
      },
      toolCall,
    );
    expect(answer).toBe("answered");
    expect(seen).toEqual([1, 2]);
    expect(opened[0]?.closed).toBe(1);
    expect(pool.stateOf(INTEGRATION_ID)).toMatchObject({
      state: "degraded",
      cause: "the server restarted and forgot our session; reconnected",
    });
  });

  it("is replaced when its connection broke; a listing is sent again, a tool call that may have run is not", async () => {
    const { pool, opened } = poolOfFakes();
    await pool.withSession(config, async () => "first", listing);
    let listings = 0;
    expect(
      await pool.withSession(
        config,
        async () => {
          listings++;
          if (listings === 1) throw network("ECONNRESET");
          return "listed";
        },
        listing,
      ),
    ).toBe("listed");
    expect(listings).toBe(2);

    let calls = 0;
    const failed = await rejection(
      pool.withSession(
        config,
        async () => {
          calls++;
          throw network("ECONNRESET");
        },
        toolCall,
      ),
    );
    expect(calls).toBe(1);
    expect(failed).toBeInstanceOf(McpConnectionError);
    expect(failed.message).toBe("The MCP server dropped the connection mid-call.");
    // The next call gets a new session.
    const before = opened.length;
    await pool.withSession(config, async () => "next", toolCall);
    expect(opened.length).toBe(before + 1);
  });

  it("is dropped, without sending the request again, when the connection is refused", async () => {
    const { pool, opened } = poolOfFakes();
    await pool.withSession(config, async () => "first", listing);
    let tries = 0;
    const failed = await rejection(
      pool.withSession(
        config,
        async () => {
          tries++;
          throw network("ECONNREFUSED");
        },
        listing,
      ),
    );
    expect(tries).toBe(1);
    expect(failed.message).toBe("Could not connect to mcp.example.com: connection refused.");
    expect(opened[0]?.closed).toBe(1);
  });

  it("is not tried again when a session opened for the call fails the same way: no loop", async () => {
    const { pool, opened } = poolOfFakes();
    let tries = 0;
    await rejection(
      pool.withSession(
        config,
        async () => {
          tries++;
          throw forgotten();
        },
        toolCall,
      ),
    );
    expect(tries).toBe(1);
    expect(opened).toHaveLength(1);
  });

  it("interrupts the calls on it, saying why, when this app closes it, and they say nothing of the server", async () => {
    const { pool } = poolOfFakes();
    let fail: (error: Error) => void = () => {};
    const call = pool.withSession(
      config,
      () =>
        new Promise((_resolve, reject) => {
          fail = reject;
        }),
      listing,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    await pool.closeIntegration(INTEGRATION_ID);
    fail(new Error("Not connected"));
    const error = await rejection(call);
    expect(error).toBeInstanceOf(McpCallInterruptedError);
    expect(pool.stateOf(INTEGRATION_ID)).toBeUndefined();
  });

  it("is not used while its server is failing: calls are refused at once with its state", async () => {
    const { pool } = poolOfFakes();
    for (let i = 0; i < 2; i++)
      await rejection(
        pool.withSession(
          config,
          async () => {
            throw network("ECONNRESET");
          },
          toolCall,
        ),
      );
    const refused = await rejection(pool.withSession(config, async () => "never", toolCall));
    expect(refused).toBeInstanceOf(McpUnavailableError);
    expect(refused.message).toMatch(
      /^The MCP server is failing: the server dropped the connection mid-call\. Calls resume with the next try in 1 s\.$/,
    );
  });
});

describe("a failing server's probe", () => {
  /** A pool whose server refuses until `up` is set, and answers pings then. */
  function poolWithServer(idleMs: number) {
    const server = { up: false, pings: 0 };
    const pool = new McpSessionPool({
      idleMs,
      open: async () => {
        if (!server.up) throw network("ECONNREFUSED");
        return {
          client: {
            getServerVersion: () => undefined,
            ping: async () => {
              server.pings++;
              return {};
            },
          } as unknown as Client,
          era: "legacy" as const,
          transport: "streamable-http" as const,
          sessionId: () => "probed",
          stale: false,
          close: async () => {},
        };
      },
    });
    pools.push(pool);
    return { pool, server };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it("brings it back by itself when it answers again, with no call needed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const { pool, server } = poolWithServer(60_000);
    for (let i = 0; i < 2; i++) await rejection(pool.withSession(config, async () => "x", listing));
    expect(pool.stateOf(INTEGRATION_ID)?.state).toBe("failing");
    // Still down at the first try: it waits twice as long for the next.
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.stateOf(INTEGRATION_ID)?.state).toBe("failing");
    server.up = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.pings).toBe(1);
    expect(pool.stateOf(INTEGRATION_ID)).toMatchObject({
      state: "healthy",
      cause: "answering again after 3 s",
    });
  });

  it("stops when nothing has wanted the server for the idle time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const { pool, server } = poolWithServer(2500);
    for (let i = 0; i < 2; i++) await rejection(pool.withSession(config, async () => "x", listing));
    // Its first try (at 1 s) finds it down; by its next (3 s) nobody has wanted it for 2.5 s: tries want nothing.
    await vi.advanceTimersByTimeAsync(1100);
    server.up = true;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.pings).toBe(0);
    expect(pool.stateOf(INTEGRATION_ID)?.state).toBe("failing");
  });
});
