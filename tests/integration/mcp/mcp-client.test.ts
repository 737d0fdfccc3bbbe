import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SdkMcpClient } from "@/lib/mcp/client/mcp-client";
import { rememberedRevision } from "@/lib/mcp/client/revision-memory";
import { McpSessionPool } from "@/lib/mcp/client/session-pool";
import { McpConnectionError, McpUnauthorizedError, McpUpstreamError } from "@/lib/mcp/errors";
import { bundledCommand, findPreset } from "@/lib/mcp/presets";
import type { McpConnectionConfig } from "@/lib/mcp/types";
import { type RunningFixture, startEverything, startFixture } from "../../fixtures/mcp/start-fixture";

const ORG_ID = randomUUID();
const pool = new McpSessionPool({ idleMs: 60_000 });
const client = new SdkMcpClient(pool);
const running: RunningFixture[] = [];
afterAll(async () => {
  await pool.closeAll();
  await Promise.all(running.map((fixture) => fixture.stop()));
});

async function fixture(kind: string, args?: string[]) {
  const started = await startFixture(kind, { args });
  running.push(started);
  return started;
}

const http = (
  url: string,
  extra: Partial<Extract<McpConnectionConfig, { url: string }>> = {},
): McpConnectionConfig => ({
  integrationId: randomUUID(),
  orgId: ORG_ID,
  timeoutMs: 10_000,
  transport: "streamable-http",
  url,
  headers: {},
  allowPrivateNetwork: true,
  ...extra,
});

const everythingStdio = (): McpConnectionConfig => {
  const entry = findPreset("everything");
  if (!entry) throw new Error("catalog entry missing");
  return {
    integrationId: randomUUID(),
    orgId: ORG_ID,
    timeoutMs: 15_000,
    transport: "stdio",
    ...bundledCommand(entry),
    env: {},
  };
};

const stdioCrash = (): McpConnectionConfig => ({
  integrationId: randomUUID(),
  orgId: ORG_ID,
  timeoutMs: 15_000,
  transport: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", path.resolve("tests/fixtures/mcp/stdio-crash.ts")],
  env: {},
});

async function failure(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as Error,
  );
}

const textOf = (result: { content: unknown[] | null }) =>
  (result.content ?? []).map((part) => (part as { text?: string }).text ?? "").join("");

describe.each([
  ["stdio", async () => everythingStdio()],
  ["Streamable HTTP", async () => http((await startEverythingTracked("streamableHttp")).url)],
  ["SSE", async () => http((await startEverythingTracked("sse")).url, { transport: "sse" })],
])("the Everything server over %s", (_name, makeConfig) => {
  it("discovers its tools, resources and prompts and calls tools", async () => {
    const config = await makeConfig();
    const { tools, resources, prompts } = await client.listFeatures(config);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]),
    );
    expect(tools.find((tool) => tool.name === "echo")?.inputSchema).toMatchObject({ type: "object" });
    expect(resources.length).toBeGreaterThan(0);
    expect(prompts.map((prompt) => prompt.name)).toContain("simple-prompt");

    expect(textOf(await client.executeTool(config, "echo", { message: "hi" }))).toBe("Echo: hi");
    expect(textOf(await client.executeTool(config, "get-sum", { a: 2, b: 3 }))).toContain("5");
    const image = await client.executeTool(config, "get-tiny-image", {});
    expect(image.content?.some((part) => part.type === "image" && typeof part.data === "string")).toBe(true);
  });

  it("reads a resource and renders a prompt with its arguments", async () => {
    const config = await makeConfig();
    const { resources } = await client.listFeatures(config);
    const document = resources.find((resource) =>
      resource.uri.startsWith("demo://resource/static/document/"),
    );
    if (!document) throw new Error("no static document resource");
    const read = await client.readResource(config, document.uri);
    expect(read.contents[0]).toMatchObject({ uri: document.uri });
    const first = read.contents[0];
    expect(first && "text" in first ? first.text.length : 0).toBeGreaterThan(0);

    const prompt = await client.getPrompt(config, "args-prompt", { city: "Lisbon", state: "Lisboa" });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Lisbon, Lisboa?" } },
    ]);
    // The server's own error, as it sent it: its code, and its message without a second prefix.
    const refused = await failure(client.getPrompt(config, "no-such-prompt", {}));
    expect(refused).toBeInstanceOf(McpUpstreamError);
    expect((refused as McpUpstreamError).rpc.code).toBe(-32602);
    expect(refused.message).toMatch(/no-such-prompt|not found/i);
    expect(refused.message).not.toMatch(/MCP error -32602: MCP error/);
  });

  it("returns a failing call as an error result", async () => {
    const config = await makeConfig();
    const result = await client
      .executeTool(config, "get-sum", { a: "not a number" })
      .catch((error: Error) => ({
        isError: true,
        content: null,
        errorMessage: error.message,
      }));
    expect(result.isError).toBe(true);
    expect(result.errorMessage).toBeTruthy();
  });
});

describe("stdio servers of either revision", () => {
  const logs = mkdtempSync(path.join(tmpdir(), "stdio-starts-"));

  /** A stdio fixture noting each of its processes' pids in a file of its own. */
  const noted = (file: string, timeoutMs = 15_000) => {
    const starts = path.join(logs, randomUUID());
    const config = {
      integrationId: randomUUID(),
      orgId: ORG_ID,
      timeoutMs,
      transport: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", path.resolve("tests/fixtures/mcp", file), "--starts", starts],
      env: {},
    } satisfies McpConnectionConfig;
    return { config, pids: () => pidsIn(starts) };
  };

  it("serves one that speaks only 2026-07-28, probing it on a process of its own only the first time", async () => {
    const local = new McpSessionPool({ idleMs: 60_000 });
    const localClient = new SdkMcpClient(local);
    const { config, pids } = noted("stdio-modern.ts");
    try {
      const { tools, resources, prompts } = await localClient.listFeatures(config);
      expect(tools.map((tool) => tool.name)).toContain("test_simple_text");
      expect(resources.map((resource) => resource.uri)).toContain("test://static-text");
      expect(prompts.map((prompt) => prompt.name)).toContain("test_simple_prompt");
      expect(textOf(await localClient.executeTool(config, "test_simple_text", {}))).toBe(
        "This is a simple text response for testing.",
      );
      const read = await localClient.readResource(config, "test://static-text");
      expect(read.contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
      // The probe's process is gone: one process, in the one place the pool counts.
      expect(pids()).toHaveLength(2);
      expect(pids().filter(isRunning)).toHaveLength(1);
      expect(local.processCount()).toBe(1);
      expect(rememberedRevision(config)).toMatchObject({ kind: "modern" });
      // Its next process adopts the remembered answer: no probe.
      await local.closeIntegration(config.integrationId);
      expect(pids().filter(isRunning)).toHaveLength(0);
      expect(local.processCount()).toBe(0);
      expect(textOf(await localClient.executeTool(config, "test_simple_text", {}))).toMatch(/simple text/);
      expect(pids()).toHaveLength(3);
    } finally {
      await local.closeAll();
    }
  });

  it("serves one that speaks only 2025 revisions the 2025 way, probing it only the first time", async () => {
    const local = new McpSessionPool({ idleMs: 60_000 });
    const localClient = new SdkMcpClient(local);
    const { config, pids } = noted("stdio-crash.ts");
    try {
      expect(textOf(await localClient.executeTool(config, "ok", {}))).toBe("ok");
      expect(pids()).toHaveLength(2);
      expect(pids().filter(isRunning)).toHaveLength(1);
      expect(rememberedRevision(config)).toEqual({ kind: "legacy" });
      await local.closeIntegration(config.integrationId);
      expect(textOf(await localClient.executeTool(config, "ok", {}))).toBe("ok");
      expect(textOf(await localClient.executeTool(config, "ok", {}))).toBe("ok");
      expect(pids()).toHaveLength(3);
    } finally {
      await local.closeAll();
    }
  });

  it("says a command that does not exist was not found", async () => {
    const error = await failure(
      client.listFeatures({
        integrationId: randomUUID(),
        orgId: ORG_ID,
        timeoutMs: 5000,
        transport: "stdio",
        command: "no-such-mcp-server-command",
        args: [],
        env: {},
      }),
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toBe(
      'Could not start the command "no-such-mcp-server-command": command not found.',
    );
  });

  it("gives up on one that never answers after its timeout, leaving no process behind", async () => {
    const starts = path.join(logs, randomUUID());
    const config = {
      integrationId: randomUUID(),
      orgId: ORG_ID,
      timeoutMs: 1000,
      transport: "stdio",
      command: process.execPath,
      // Notes its pid, then reads nothing and answers nothing.
      args: [
        "-e",
        "require('fs').appendFileSync(process.argv[1], process.pid + '\\n'); setInterval(() => {}, 1e6)",
        starts,
      ],
      env: {},
    } satisfies McpConnectionConfig;
    // Each try on a pool of its own, which has no state for the integration that would hold the call back.
    for (const started of [2, 3]) {
      const local = new McpSessionPool({ idleMs: 60_000 });
      try {
        const error = await failure(new SdkMcpClient(local).listFeatures(config));
        expect(error).toBeInstanceOf(McpConnectionError);
        expect(error.message).toMatch(/did not (finish the handshake|answer) within 1 s/);
        // The first try's probe process and its 2025 handshake's are both gone once the failure is reported;
        // silent to the probe, the server is not probed again.
        expect(pidsIn(starts)).toHaveLength(started);
        expect(pidsIn(starts).filter(isRunning)).toEqual([]);
        expect(local.processCount()).toBe(0);
      } finally {
        await local.closeAll();
      }
    }
  });
});

function pidsIn(file: string): number[] {
  try {
    return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startEverythingTracked(transport: "streamableHttp" | "sse") {
  const started = await startEverything(transport);
  running.push(started);
  return started;
}

describe("sessions and processes", () => {
  it("runs one stdio process per integration, shared by sequential and concurrent calls", async () => {
    const config = stdioCrash();
    const pids = await Promise.all([1, 2, 3].map(() => client.executeTool(config, "pid", {}).then(textOf)));
    pids.push(textOf(await client.executeTool(config, "pid", {})));
    expect(new Set(pids).size).toBe(1);
  });

  it("reports a stdio server that crashes mid-call, then starts a fresh process", async () => {
    const config = stdioCrash();
    const before = textOf(await client.executeTool(config, "pid", {}));
    const error = await failure(client.executeTool(config, "crash", {}));
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toMatch(/closed the connection/);
    const after = textOf(await client.executeTool(config, "pid", {}));
    expect(after).not.toBe(before);
  });

  it("re-initializes an expired session (HTTP 404) transparently", async () => {
    const server = await fixture("expiring-sessions", ["--expire-after", "2"]);
    const config = http(server.url);
    for (let i = 0; i < 5; i++)
      expect(textOf(await client.executeTool(config, "echo", { message: `m${i}` }))).toBe(`Echo: m${i}`);
    const stats = (await (await fetch(`${server.baseUrl}/stats`)).json()) as { initializeCount: number };
    expect(stats.initializeCount).toBeGreaterThanOrEqual(3);
  });

  it.each(["streamableHttp", "sse"] as const)(
    "answers the first call after the reference server over %s restarts, on a new session",
    async (transport) => {
      let server = await startEverythingTracked(transport);
      const config = http(server.url, transport === "sse" ? { transport: "sse" } : {});
      expect(textOf(await client.executeTool(config, "echo", { message: "before" }))).toBe("Echo: before");
      const { port } = server;
      await server.stop();
      server = await startEverything(transport, { port });
      running.push(server);
      expect(textOf(await client.executeTool(config, "echo", { message: "after" }))).toBe("Echo: after");
    },
  );

  it("reuses the session across calls instead of reconnecting", async () => {
    const server = await fixture("expiring-sessions", ["--expire-after", "1000"]);
    const config = http(server.url);
    for (let i = 0; i < 4; i++) await client.executeTool(config, "echo", { message: "x" });
    const stats = (await (await fetch(`${server.baseUrl}/stats`)).json()) as { initializeCount: number };
    expect(stats.initializeCount).toBe(1);
  });

  it("closes idle sessions, and all sessions on shutdown", async () => {
    const local = new McpSessionPool({ idleMs: 60_000 });
    const localClient = new SdkMcpClient(local);
    await localClient.executeTool(stdioCrash(), "ok", {});
    await localClient.executeTool(stdioCrash(), "ok", {});
    expect(local.size).toBe(2);
    await local.closeIdle(Date.now() + 61_000);
    expect(local.size).toBe(0);
    await localClient.executeTool(stdioCrash(), "ok", {});
    await local.closeAll();
    expect(local.size).toBe(0);
  });
});

describe("servers that misbehave", () => {
  it("collects every page of a long tool and resource list", async () => {
    const server = await fixture("paginated");
    const { tools, resources, prompts } = await client.listFeatures(http(server.url));
    expect(tools).toHaveLength(250);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(250);
    expect(resources).toHaveLength(120);
    expect(prompts).toHaveLength(3);
  });

  it("gives up on a hung server after its timeout", async () => {
    const server = await fixture("hang");
    const started = Date.now();
    const error = await failure(client.listFeatures(http(server.url, { timeoutMs: 1000 })));
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toBe("The MCP server did not answer within 1 s.");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("gives up on a server that never completes the handshake", async () => {
    const server = await fixture("hang-connect");
    const error = await failure(client.listFeatures(http(server.url, { timeoutMs: 1000 })));
    expect(error.message).toMatch(/did not (finish the handshake|answer) within 1 s/);
  });

  it("reports an HTTP server that crashes mid-call", async () => {
    const server = await fixture("crash");
    const config = http(server.url);
    expect(textOf(await client.executeTool(config, "ok", {}))).toBe("ok");
    const error = await failure(client.executeTool(config, "crash", {}));
    expect(error).toBeInstanceOf(McpConnectionError);
  });

  it.each([
    ["garbage", /not valid MCP/],
    ["garbage-jsonrpc", /not valid MCP/],
    ["not-mcp", /did not answer as an MCP server/],
  ])("explains a %s server clearly", async (kind, message) => {
    const server = await fixture(kind);
    const error = await failure(client.listFeatures(http(server.url, { timeoutMs: 3000 })));
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toMatch(message);
  });

  it("says the credentials were refused on HTTP 401, and sends the configured headers", async () => {
    const server = await fixture("auth-required", ["--token", "s3cret"]);
    const refused = await failure(client.listFeatures(http(server.url)));
    expect(refused).toBeInstanceOf(McpUnauthorizedError);
    expect(refused.message).toMatch(/HTTP 401/);
    const config = http(server.url, { headers: { Authorization: "Bearer s3cret", "X-Team": "blue" } });
    expect(textOf(await client.executeTool(config, "whoami", {}))).toBe("authorized");
    const stats = (await (await fetch(`${server.baseUrl}/stats`)).json()) as {
      lastHeaders: Record<string, string>;
    };
    expect(stats.lastHeaders["x-team"]).toBe("blue");
  });

  it("reports an unreachable host and a refused connection", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refused = await failure(
      client.listFeatures(http(`http://127.0.0.1:${closedPort}/mcp`, { timeoutMs: 3000 })),
    );
    expect(refused.message).toMatch(/connection refused/);
    const unknown = await failure(
      client.listFeatures(http("http://no-such-host.invalid/mcp", { timeoutMs: 5000 })),
    );
    expect(unknown.message).toMatch(/Could not (find the host|connect)/);
  });

  it("refuses private addresses unless they are allowed", async () => {
    const server = await fixture("slow");
    const error = await failure(client.listFeatures(http(server.url, { allowPrivateNetwork: false })));
    expect(error.message).toMatch(/MCP_ALLOW_PRIVATE_NETWORKS/);
  });

  it("keeps one broken integration from slowing another", async () => {
    const hung = await fixture("hang");
    const healthy = everythingStdio();
    const started = Date.now();
    const [bad, good] = await Promise.allSettled([
      client.listFeatures(http(hung.url, { timeoutMs: 2000 })),
      client.executeTool(healthy, "echo", { message: "still here" }),
    ]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && textOf(good.value)).toBe("Echo: still here");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
