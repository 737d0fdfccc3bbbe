import { processWide } from "@/lib/process-wide.mjs";

// Every server bundle of the process waits on the same locks.
const locksOf = () => processWide("oauthLocks", () => new Map<string, Promise<void>>());

/** Runs fn once nothing else holds the key in this process: callers take turns, in order. */
export async function withLocalLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const locks = locksOf();
  const previous = locks.get(key) ?? Promise.resolve();
  let release: () => void = () => {};
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const queue = previous.then(() => turn);
  locks.set(key, queue);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (locks.get(key) === queue) locks.delete(key);
  }
}
