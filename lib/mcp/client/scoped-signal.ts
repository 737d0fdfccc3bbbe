/**
 * A signal that follows `outer` only until `release()`. The SDK listens to a request's signal for good, so a
 * caller's signal that fires after the answer came (a finished gateway request closing its server) would still
 * send the server a cancellation of a request it already answered.
 */
export function scopedSignal(outer: AbortSignal | undefined): { signal?: AbortSignal; release: () => void } {
  if (!outer) return { release: () => {} };
  const controller = new AbortController();
  if (outer.aborted) controller.abort(outer.reason);
  const follow = () => controller.abort(outer.reason);
  outer.addEventListener("abort", follow, { once: true });
  return { signal: controller.signal, release: () => outer.removeEventListener("abort", follow) };
}
