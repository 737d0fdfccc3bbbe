import { describe, expect, it } from "vitest";
import { Circuit } from "@/lib/mcp/client/circuit";
import type { IntegrationState } from "@/lib/mcp/integration-state";

/** A circuit on a clock the test moves, with every state it announced. */
function circuit(backoffMs = 1000, maxBackoffMs = 8000) {
  let now = 1_000_000;
  const changes: IntegrationState[] = [];
  const breaker = new Circuit({ backoffMs, maxBackoffMs, now: () => now }, (state) => changes.push(state));
  return {
    breaker,
    changes,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    last: () => changes.at(-1),
  };
}

const refused = { ok: false as const, cause: "connection refused" };

describe("an integration's state", () => {
  it("is unknown until a call, then healthy", () => {
    const { breaker, last } = circuit();
    expect(breaker.state).toBeUndefined();
    breaker.record({ ok: true });
    expect(last()).toMatchObject({ state: "healthy", cause: "answering" });
  });

  it("degrades on one failed call and fails on the second in a row, refusing calls until its next try", () => {
    const { breaker, last, advance, now } = circuit();
    breaker.record({ ok: true });
    breaker.record(refused);
    expect(last()).toMatchObject({ state: "degraded", cause: "connection refused" });
    expect(breaker.admit()).toEqual({ go: true, trial: false });
    breaker.record(refused);
    expect(last()).toMatchObject({ state: "failing", cause: "connection refused" });
    expect(last()?.nextTryAt?.getTime()).toBe(now() + 1000);
    expect(breaker.admit()).toMatchObject({ go: false, state: { state: "failing" } });
    advance(999);
    expect(breaker.admit().go).toBe(false);
  });

  it("lets calls go while it fails only by refusing connections, which costs nobody anything, and heals on the first answer", () => {
    const { breaker, last, changes } = circuit();
    breaker.record({ ...refused, cheap: true });
    breaker.record({ ...refused, cheap: true });
    expect(last()?.state).toBe("failing");
    expect(breaker.admit()).toEqual({ go: true, trial: false });
    const announced = changes.length;
    breaker.record({ ...refused, cheap: true });
    expect(changes).toHaveLength(announced);
    breaker.record({ ok: true });
    expect(last()?.state).toBe("healthy");
  });

  it("fails at once on a timeout, which costs every caller its whole wait", () => {
    const { breaker, last } = circuit();
    breaker.record({ ok: false, cause: "timed out after 30 s", timeout: true });
    expect(last()).toMatchObject({ state: "failing", cause: "timed out after 30 s" });
  });

  it("fails at once when a check says so", () => {
    const { breaker, last } = circuit();
    breaker.record(refused, { conclusive: true });
    expect(last()?.state).toBe("failing");
  });

  it("lets one call try when the wait is over, refusing the others while it runs, and heals when it answers", () => {
    const { breaker, last, advance } = circuit();
    breaker.record(refused);
    breaker.record(refused);
    advance(1000);
    expect(breaker.admit()).toEqual({ go: true, trial: true });
    expect(last()).toMatchObject({
      state: "recovering",
      cause: "trying again (last failure: connection refused)",
    });
    expect(breaker.admit()).toMatchObject({ go: false, state: { state: "recovering" } });
    advance(2000);
    breaker.record({ ok: true }, { trial: true });
    expect(last()).toMatchObject({ state: "healthy", cause: "answering again after 3 s" });
    expect(breaker.admit()).toEqual({ go: true, trial: false });
  });

  it("waits twice as long after each failed try, up to the most", () => {
    const { breaker, last, advance, now } = circuit(1000, 4000);
    breaker.record(refused);
    breaker.record(refused);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      advance((last()?.nextTryAt?.getTime() ?? 0) - now());
      expect(breaker.admit()).toEqual({ go: true, trial: true });
      breaker.record(refused, { trial: true });
      waits.push((last()?.nextTryAt?.getTime() ?? 0) - now());
    }
    expect(waits).toEqual([2000, 4000, 4000, 4000]);
  });

  it("takes no notice of calls that were under way when it started failing", () => {
    const { breaker, last, changes } = circuit();
    breaker.record({ ok: false, cause: "timed out after 30 s", timeout: true });
    const failing = last();
    const announced = changes.length;
    for (let i = 0; i < 5; i++) breaker.record({ ok: false, cause: "timed out after 30 s", timeout: true });
    expect(changes).toHaveLength(announced);
    expect(last()).toBe(failing);
  });

  it("lets the next call try at once when a try is abandoned by its caller", () => {
    const { breaker, advance } = circuit();
    breaker.record(refused);
    breaker.record(refused);
    advance(1000);
    expect(breaker.admit()).toEqual({ go: true, trial: true });
    breaker.abandon();
    expect(breaker.state?.state).toBe("failing");
    expect(breaker.admit()).toEqual({ go: true, trial: true });
  });

  it("is degraded after a reconnect or a slow answer, and healthy again after three good calls", () => {
    const { breaker, last } = circuit();
    breaker.record({ ok: true });
    breaker.record({ ok: true, reconnected: true });
    expect(last()).toMatchObject({
      state: "degraded",
      cause: "the server restarted and forgot our session; reconnected",
    });
    breaker.record({ ok: true });
    breaker.record({ ok: true });
    expect(last()?.state).toBe("degraded");
    breaker.record({ ok: true });
    expect(last()).toMatchObject({ state: "healthy", cause: "answering normally again" });
    breaker.record({ ok: true, slow: true });
    expect(last()).toMatchObject({ state: "degraded", cause: "answering slowly (over half its timeout)" });
  });

  it("keeps the time it changed state while only its cause changes", () => {
    const { breaker, last, advance } = circuit();
    breaker.record({ ok: true, slow: true });
    const since = last()?.changedAt;
    advance(5000);
    breaker.record({ ok: true, reconnected: true });
    expect(last()?.cause).toMatch(/reconnected/);
    expect(last()?.changedAt).toEqual(since);
  });
});
