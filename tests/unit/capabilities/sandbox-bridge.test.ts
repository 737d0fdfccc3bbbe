import type { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCapability, type SandboxLimits } from "@/lib/capabilities/sandbox";

// Every worker thread the sandbox starts, so a test can speak to the host as a broken worker would.
const workers = vi.hoisted(() => [] as Worker[]);
vi.mock("node:worker_threads", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:worker_threads")>();
  class RecordedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      workers.push(this);
    }
  }
  return { ...actual, default: { ...actual, Worker: RecordedWorker }, Worker: RecordedWorker };
});

const limits: SandboxLimits = {
  timeoutMs: 5000,
  memoryBytes: 64 * 1024 * 1024,
  maxOutputBytes: 64 * 1024,
  stackBytes: 256 * 1024,
  maxToolCalls: 5,
};

afterEach(() => vi.restoreAllMocks());

function run(code: string, callTool = vi.fn(async (_name: string, args: Record<string, unknown>) => args)) {
  return { callTool, result: runCapability({ code, args: {}, limits, callTool }) };
}

/** The log lines written while `work` runs. */
async function logged<T>(work: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    return { value: await work(), lines };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("capability tools.call: the size of its arguments", () => {
  it("refuses arguments over 1 MB as JSON with an error the code can catch; the host never sees them", async () => {
    const { callTool, result } = run(
      "try { await tools.call('echo', { text: 'x'.repeat(1100000) }); return 'called'; } catch (e) { return e.message; }",
    );
    expect(await result).toMatchObject({
      ok: true,
      value: expect.stringMatching(/at most 1,048,576 bytes/),
    });
    expect(callTool).not.toHaveBeenCalled();
  }, 30_000);

  it("passes arguments just under the bound", async () => {
    const { callTool, result } = run(
      "const r = await tools.call('echo', { text: 'x'.repeat(1000000) }); return r.text.length;",
    );
    expect(await result).toMatchObject({ ok: true, value: 1_000_000 });
    expect(callTool).toHaveBeenCalledTimes(1);
  }, 30_000);
});

describe("capability tools.call: arguments that are not a JSON object", () => {
  it.each([
    ["a function", "() => 1"],
    ["a string", "'text'"],
    ["an array", "[1, 2]"],
    ["a number", "42"],
  ])("answers %s with an error the code can catch, never an uncaught exception", async (_what, value) => {
    const { callTool, result } = run(
      `try { await tools.call('echo', ${value}); return 'called'; } catch (e) { return e.message; }`,
    );
    expect(await result).toMatchObject({ ok: true, value: expect.stringMatching(/JSON object/) });
    expect(callTool).not.toHaveBeenCalled();
  });

  it("still treats a missing argument as no arguments", async () => {
    const { callTool, result } = run("return await tools.call('echo');");
    expect(await result).toMatchObject({ ok: true, value: {} });
    expect(callTool).toHaveBeenCalledWith("echo", {}, expect.any(AbortSignal));
  });
});

describe("messages from the sandbox worker", () => {
  it("ignores and logs malformed ones instead of throwing, and the run goes on", async () => {
    let release: (value: Record<string, unknown>) => void = () => {};
    const { callTool, result } = run(
      "const r = await tools.call('slow', { n: 1 }); return { got: r };",
      vi.fn(() => new Promise<Record<string, unknown>>((resolve) => (release = resolve))),
    );
    // The run is waiting on its tool call: its worker is the one the host listens to.
    await vi.waitFor(() => expect(callTool).toHaveBeenCalledTimes(1));
    const worker = workers.find((w) => w.listenerCount("message") > 0) as Worker;
    const garbage: unknown[] = [
      null,
      "done",
      42,
      {},
      { type: "unknown" },
      { type: "tool" },
      { type: "tool", callId: "1", name: "echo", argsJson: "{}" },
      { type: "tool", callId: 1, name: 5, argsJson: "{}" },
      { type: "tool", callId: 1, name: "echo", argsJson: { a: 1 } },
      { type: "done" },
      { type: "done", result: "ok", reusable: true },
      { type: "done", result: { ok: true }, reusable: true },
      { type: "done", result: { ok: false, error: { kind: "nope", message: 1 } }, reusable: "yes" },
    ];
    const { lines } = await logged(async () => {
      for (const message of garbage) expect(() => worker.emit("message", message)).not.toThrow();
    });
    expect(lines.filter((line) => line.includes("malformed message"))).toHaveLength(garbage.length);
    release({ fine: true });
    expect(await result).toMatchObject({ ok: true, value: { got: { fine: true } }, toolCalls: 1 });
  });
});
