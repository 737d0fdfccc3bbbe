import { afterEach, describe, expect, it } from "vitest";
import {
  closeAfterServer,
  endStreams,
  finishBeforeExit,
  isDraining,
  manageStop,
  onStreamsEnd,
  resetDraining,
  serverClosed,
  startDraining,
} from "@/lib/http/draining.mjs";

afterEach(() => {
  resetDraining();
});

describe("an instance's stop", () => {
  it("says it drains once told, not before", () => {
    expect(isDraining()).toBe(false);
    startDraining();
    expect(isDraining()).toBe(true);
  });

  it("ends each open stream once, and a stream opened after at once; a stream that ended is forgotten", () => {
    const ended: string[] = [];
    onStreamsEnd(() => ended.push("a"));
    const forget = onStreamsEnd(() => ended.push("b"));
    forget();
    endStreams();
    endStreams();
    expect(ended).toEqual(["a"]);
    onStreamsEnd(() => ended.push("late"));
    expect(ended).toEqual(["a", "late"]);
  });

  it("leaves closing to the caller where no server stops in order", () => {
    expect(closeAfterServer(async () => {})).toBe(false);
  });

  it("closes what waits for the server only when the server has closed, even if one close fails", async () => {
    manageStop();
    const closed: string[] = [];
    expect(closeAfterServer(async () => void closed.push("pool"))).toBe(true);
    closeAfterServer(() => Promise.reject(new Error("already gone")));
    expect(closed).toEqual([]);
    await serverClosed();
    expect(closed).toEqual(["pool"]);
  });

  it("lets work that outlived its request end before it closes what that work uses", async () => {
    manageStop();
    const order: string[] = [];
    let finish: () => void = () => {};
    finishBeforeExit(
      new Promise<void>((resolve) => {
        finish = resolve;
      }).then(() => order.push("turn ended")),
    );
    closeAfterServer(async () => {
      order.push("upstreams closed");
    });
    const closed = serverClosed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    finish();
    await closed;
    expect(order).toEqual(["turn ended", "upstreams closed"]);
  });
});
