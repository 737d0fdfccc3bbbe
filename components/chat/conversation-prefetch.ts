/**
 * What the sidebar fetched ahead in this tab, to know when a conversation opened from such a prefetch may be out of
 * date. The router keeps a prefetched page for minutes; a conversation can change meanwhile (a message sent here
 * while its answer was still coming, or in another tab), so one fetched ahead too long ago is shown at once and
 * then asked for again.
 */

// Between the pointer resting on a row and the click there is well under this; older than this, ask again.
export const PREFETCH_TRUSTED_MS = 10_000;

/** When each conversation was first fetched ahead since the router's cache was last refreshed (Date.now()). */
const prefetched = new Map<string, number>();

/** The sidebar fetched the conversation ahead (the router keeps the first fetch until a refresh). */
export function notePrefetched(id: string, now = Date.now()): void {
  if (!prefetched.has(id)) prefetched.set(id, now);
}

/** This tab changed the conversation: a page of it fetched ahead before no longer shows it as it is. */
export function noteChanged(id: string): void {
  if (prefetched.has(id)) prefetched.set(id, Number.NEGATIVE_INFINITY);
}

/** The router dropped what it fetched ahead of the conversation: the next prefetch is a new one. */
export function forgetPrefetch(id: string): void {
  prefetched.delete(id);
}

/** The router's cache was refreshed: whatever is fetched ahead from now on is fetched anew. */
export function forgetPrefetches(): void {
  prefetched.clear();
}

/** Whether the conversation being opened may have come from a prefetch old enough to be out of date. */
export function mayBeOutOfDate(id: string, now = Date.now()): boolean {
  const at = prefetched.get(id);
  return at !== undefined && now - at > PREFETCH_TRUSTED_MS;
}
