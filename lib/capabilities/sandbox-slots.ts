import { getEnv } from "@/lib/env";

export class SlotWaitAborted extends Error {}

interface Waiter {
  priority: number;
  grant: () => void;
}

/**
 * A counting semaphore whose waiters are served highest priority first, then in arrival order. Capability
 * runs wait here for a sandbox thread; nested runs rank above top-level ones, so trees already holding
 * threads finish before new ones start.
 */
export class SlotQueue {
  private active = 0;
  private readonly waiters: Waiter[] = [];

  constructor(readonly limit: number) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves with the slot's release once one is free; rejects with SlotWaitAborted if the signal fires first. */
  acquire(priority: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new SlotWaitAborted());
    if (this.active < this.limit && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.active++;
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new SlotWaitAborted());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // Before the first waiter of lower priority: equal priorities keep their arrival order.
      const at = this.waiters.findIndex((other) => other.priority < priority);
      this.waiters.splice(at < 0 ? this.waiters.length : at, 0, waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiters.shift()?.grant();
    };
  }
}

let slots: SlotQueue | undefined;

/** The process's sandbox threads: at most CAPABILITY_MAX_CONCURRENT_RUNS capability runs at once. */
export function sandboxSlots(): SlotQueue {
  slots ??= new SlotQueue(getEnv().CAPABILITY_MAX_CONCURRENT_RUNS);
  return slots;
}
