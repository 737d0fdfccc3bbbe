import { describe, expect, it } from "vitest";
import { SlotQueue, SlotWaitAborted } from "@/lib/capabilities/sandbox-slots";

describe("the queue for sandbox threads", () => {
  it("grants at most its limit at once and the next waiter on each release", async () => {
    const queue = new SlotQueue(2);
    const first = await queue.acquire(0);
    const second = await queue.acquire(0);
    const granted: string[] = [];
    const third = queue.acquire(0).then((release) => {
      granted.push("third");
      return release;
    });
    await Promise.resolve();
    expect(granted).toEqual([]);
    expect([queue.running, queue.queued]).toEqual([2, 1]);
    first();
    // Releasing twice frees one slot only.
    first();
    (await third)();
    expect(granted).toEqual(["third"]);
    expect([queue.running, queue.queued]).toEqual([1, 0]);
    second();
    expect(queue.running).toBe(0);
  });

  it("serves higher priorities first, and equal ones in arrival order", async () => {
    const queue = new SlotQueue(1);
    const holder = await queue.acquire(0);
    const order: string[] = [];
    const wait = (name: string, priority: number) =>
      queue.acquire(priority).then((release) => {
        order.push(name);
        release();
      });
    const all = Promise.all([
      wait("top-1", 0),
      wait("nested-1", 1),
      wait("top-2", 0),
      wait("deeper", 2),
      wait("nested-2", 1),
    ]);
    holder();
    await all;
    expect(order).toEqual(["deeper", "nested-1", "nested-2", "top-1", "top-2"]);
  });

  it("drops a waiter whose signal fires, without granting it a slot", async () => {
    const queue = new SlotQueue(1);
    const holder = await queue.acquire(0);
    const controller = new AbortController();
    const waiting = queue.acquire(0, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitAborted);
    expect(queue.queued).toBe(0);
    holder();
    expect(queue.running).toBe(0);
    await expect(queue.acquire(0, AbortSignal.abort())).rejects.toBeInstanceOf(SlotWaitAborted);
  });
});
