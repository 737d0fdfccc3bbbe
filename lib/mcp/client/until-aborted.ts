/**
 * Settles with work, or rejects (with `reason()`, else the signal's reason) as soon as the signal fires, leaving
 * work to go on for whoever else waits on it: a pooled connect, a first discovery.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  reason: () => unknown = () => signal.reason,
): Promise<T> {
  // Whatever work ends in, nobody may be left listening: no unhandled rejection.
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(reason());
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
