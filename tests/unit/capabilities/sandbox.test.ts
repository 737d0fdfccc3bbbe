import { describe, expect, it } from "vitest";
import { runCapability, type SandboxLimits } from "@/lib/capabilities/sandbox";

const limits: SandboxLimits = {
  timeoutMs: 2000,
  memoryBytes: 32 * 1024 * 1024,
  maxOutputBytes: 64 * 1024,
  stackBytes: 256 * 1024,
  maxToolCalls: 5,
};

const tools: Record<string, (args: Record<string, unknown>) => unknown> = {
  echo: (args) => ({ echoed: args.message }),
  add: (args) => ({ sum: Number(args.a) + Number(args.b) }),
  broken: () => {
    throw new Error("the server timed out");
  },
};

const run = (code: string, args: Record<string, unknown> = {}, overrides: Partial<SandboxLimits> = {}) =>
  runCapability({
    code,
    args,
    limits: { ...limits, ...overrides },
    callTool: async (name, toolArgs) => {
      const tool = tools[name];
      if (!tool) throw new Error(`Unknown tool: ${name}`);
      return tool(toolArgs);
    },
  });

async function expectHealthy() {
  expect(await run("return 1 + 1;")).toMatchObject({ ok: true, value: 2 });
}

describe("capability sandbox: what code can do", () => {
  it("returns sync and async values, receives its arguments and logs", async () => {
    expect(await run("return { greeting: 'hi ' + args.name };", { name: "Ada" })).toMatchObject({
      ok: true,
      value: { greeting: "hi Ada" },
    });
    const result = await run(
      "console.log('start', { n: 1 }); await null; console.warn('careful'); return [1, 'two'];",
    );
    expect(result).toMatchObject({ ok: true, value: [1, "two"], logs: ['start {"n":1}', "[warn] careful"] });
    expect(await run("return undefined;")).toMatchObject({ ok: true, value: null });
    expect(await run("")).toMatchObject({ ok: true, value: null });
  });

  it("composes other tools with tools.call, and can catch their errors", async () => {
    const composed = await run(
      "const e = await tools.call('echo', { message: args.text }); const s = await tools.call('add', { a: 2, b: 3 }); return { e, s };",
      { text: "yo" },
    );
    expect(composed).toMatchObject({ ok: true, value: { e: { echoed: "yo" }, s: { sum: 5 } }, toolCalls: 2 });
    const caught = await run(
      "try { await tools.call('broken', {}); } catch (e) { return 'caught: ' + e.message; }",
    );
    expect(caught).toMatchObject({ ok: true, value: "caught: the server timed out" });
    const thrown = await run("await tools.call('nope', {});");
    expect(thrown).toMatchObject({
      ok: false,
      error: { kind: "runtime", message: "Error: Unknown tool: nope" },
    });
  });

  it.each([
    ["a function", "return () => 1;"],
    ["a BigInt", "return 10n;"],
    ["an object that contains itself", "const a = {}; a.self = a; return a;"],
  ])("refuses a result that is not JSON: %s", async (_result, code) => {
    const result = await run(code);
    expect(result).toMatchObject({ ok: false, error: { kind: "runtime" } });
  });
});

describe("capability sandbox: containment", () => {
  it.each([
    ["process", "return process.env;"],
    ["require", "return require('fs');"],
    ["fetch", "return await fetch('http://example.com');"],
    ["dynamic import", "return await import('fs');"],
    [
      "the Function constructor's globals",
      "return globalThis.constructor.constructor('return process')().env;",
    ],
  ])("has no %s", async (_name, code) => {
    const result = await run(code);
    expect(result.ok).toBe(false);
    await expectHealthy();
  });

  it("rejects a static import and other syntax errors as invalid code", async () => {
    expect(await run("import fs from 'fs';")).toMatchObject({ ok: false, error: { kind: "invalid_code" } });
    expect(await run("return {;")).toMatchObject({ ok: false, error: { kind: "invalid_code" } });
  });

  it("names the line of the code a syntax error is on", async () => {
    expect(await run("const a = 1;\nconst b = 2;\nreturn {;")).toMatchObject({
      ok: false,
      error: { kind: "invalid_code", message: "SyntaxError: invalid property name (line 3)" },
    });
  });

  it("keeps prototype pollution inside the sandbox", async () => {
    const result = await run(
      "Object.prototype.polluted = 'yes'; Array.prototype.map = null; return ({}).polluted;",
    );
    expect(result).toMatchObject({ ok: true, value: "yes" });
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect([1].map((n) => n + 1)).toEqual([2]);
    await expectHealthy();
  });

  it("stops an endless loop and a promise that never settles at the deadline", async () => {
    const loop = await run("while (true) {}", {}, { timeoutMs: 200 });
    // The limit in words, never the engine's "InternalError: interrupted".
    expect(loop).toMatchObject({
      ok: false,
      error: { kind: "timeout", message: "The capability ran longer than 200 ms." },
    });
    const pending = await run("await new Promise(() => {});", {}, { timeoutMs: 200 });
    expect(pending).toMatchObject({ ok: false, error: { kind: "timeout" } });
    await expectHealthy();
  });

  it("ends a memory bomb, deep recursion and a huge result with an error", async () => {
    const bomb = await run(
      "const a = []; while (true) a.push(new ArrayBuffer(1024 * 1024));",
      {},
      {
        memoryBytes: 4 * 1024 * 1024,
      },
    );
    // Out of memory, or stopped at the deadline when the machine is slow: either way contained.
    expect(bomb.ok).toBe(false);
    expect(["memory", "timeout"]).toContain(bomb.ok ? "" : bomb.error.kind);
    const deep = await run("const f = (n) => f(n + 1) + 1; return f(0);");
    expect(deep).toMatchObject({ ok: false, error: { message: expect.stringMatching(/stack/i) } });
    const nested = await run("return JSON.parse('['.repeat(1000000));");
    expect(nested.ok).toBe(false);
    const huge = await run("return 'x'.repeat(100000);");
    expect(huge).toMatchObject({ ok: false, error: { kind: "output_too_large" } });
    await expectHealthy();
  }, 30_000);

  it("terminates code stuck in a native operation at the deadline, without blocking the server", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const stuck = await run(
      "const a = []; while (true) a.push(new Array(100000).fill(1));",
      {},
      {
        timeoutMs: 300,
        memoryBytes: 256 * 1024 * 1024,
      },
    );
    clearInterval(ticker);
    expect(stuck).toMatchObject({ ok: false, error: { kind: "timeout" } });
    // The event loop kept running while the capability did.
    expect(ticks).toBeGreaterThan(5);
    await expectHealthy();
  });

  it("limits tool calls per run", async () => {
    const result = await run("for (let i = 0; i < 10; i++) await tools.call('echo', { message: i });");
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/At most 5 tool calls/) },
    });
  });
});
