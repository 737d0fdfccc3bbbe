import { describe, expect, it } from "vitest";
import { runCapability, type SandboxLimits } from "@/lib/capabilities/sandbox";
import { sandboxSlots } from "@/lib/capabilities/sandbox-slots";
import { getEnv } from "@/lib/env";

const limits: SandboxLimits = {
  timeoutMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  maxOutputBytes: 64 * 1024,
  stackBytes: 256 * 1024,
  maxToolCalls: 5,
};

describe("capability sandbox: cancellation and the process-wide limit", () => {
  it("ends a busy run at once when its signal fires", async () => {
    const controller = new AbortController();
    const run = runCapability({
      code: "while (true) {}",
      args: {},
      limits,
      signal: controller.signal,
      cancelledMessage: () => "gone",
      callTool: async () => null,
    });
    setTimeout(() => controller.abort(), 100);
    expect(await run).toMatchObject({ ok: false, error: { kind: "cancelled", message: "gone" } });
    // Its thread was terminated, not left spinning: the next run answers.
    expect(
      await runCapability({ code: "return 1;", args: {}, limits, callTool: async () => null }),
    ).toMatchObject({
      ok: true,
      value: 1,
    });
  });

  it("tells a tool call in flight that its run ended, so what it started can stop too", async () => {
    let ended: AbortSignal | undefined;
    const result = await runCapability({
      code: "tools.call('slow', {}); return 'returned early';",
      args: {},
      limits,
      callTool: (_name, _args, signal) => {
        ended = signal;
        return new Promise(() => {});
      },
    });
    expect(result).toMatchObject({ ok: true, value: "returned early" });
    expect(ended?.aborted).toBe(true);
    // The unanswered call left nothing behind that breaks the threads that run next.
    for (let i = 0; i < 3; i++)
      expect(
        await runCapability({ code: "return 2;", args: {}, limits, callTool: async () => null }),
      ).toMatchObject({ ok: true, value: 2 });
  });

  it("runs no more capabilities at once than CAPABILITY_MAX_CONCURRENT_RUNS; the rest wait their turn", async () => {
    const limit = getEnv().CAPABILITY_MAX_CONCURRENT_RUNS;
    let inside = 0;
    let most = 0;
    const runs = Array.from({ length: limit * 3 }, (_, i) =>
      runCapability({
        code: "return await tools.call('hold', {});",
        args: {},
        limits,
        callTool: async () => {
          inside++;
          most = Math.max(most, inside, sandboxSlots().running);
          await new Promise((resolve) => setTimeout(resolve, 50));
          inside--;
          return i;
        },
      }),
    );
    const results = await Promise.all(runs);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual(
      Array.from({ length: limit * 3 }, (_, i) => i),
    );
    expect(most).toBe(limit);
    expect(sandboxSlots().running).toBe(0);
  });

  it("gives up waiting for a thread when its signal fires first", async () => {
    const limit = getEnv().CAPABILITY_MAX_CONCURRENT_RUNS;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: limit }, () =>
      runCapability({ code: "return await tools.call('hold', {});", args: {}, limits, callTool: () => held }),
    );
    const controller = new AbortController();
    const waiting = runCapability({
      code: "return 'ran';",
      args: {},
      limits,
      signal: controller.signal,
      cancelledMessage: () => "the request ended",
      callTool: async () => null,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandboxSlots().queued).toBe(1);
    controller.abort();
    expect(await waiting).toMatchObject({
      ok: false,
      error: { kind: "cancelled", message: "the request ended" },
    });
    release();
    await Promise.all(holders);
    expect([sandboxSlots().running, sandboxSlots().queued]).toEqual([0, 0]);
  });
});
