import { beforeEach, describe, expect, it } from "vitest";
import {
  forgetPrefetch,
  forgetPrefetches,
  mayBeOutOfDate,
  noteChanged,
  notePrefetched,
  PREFETCH_TRUSTED_MS,
} from "@/components/chat/conversation-prefetch";

describe("what the sidebar fetched ahead, and when it may be out of date", () => {
  beforeEach(() => forgetPrefetches());

  it("trusts a conversation fetched ahead just before it opens, not one fetched ahead long before", () => {
    notePrefetched("a", 1_000);
    expect(mayBeOutOfDate("a", 1_000 + PREFETCH_TRUSTED_MS)).toBe(false);
    expect(mayBeOutOfDate("a", 1_000 + PREFETCH_TRUSTED_MS + 1)).toBe(true);
    // Never fetched ahead: the router fetched it on the click.
    expect(mayBeOutOfDate("b", 1_000_000)).toBe(false);
  });

  it("keeps the first fetch's time: the router serves that one until its cache is refreshed", () => {
    notePrefetched("a", 1_000);
    notePrefetched("a", 1_000 + PREFETCH_TRUSTED_MS);
    expect(mayBeOutOfDate("a", 2_000 + PREFETCH_TRUSTED_MS)).toBe(true);
  });

  it("counts a conversation changed here since it was fetched ahead as out of date at once", () => {
    notePrefetched("a", 1_000);
    noteChanged("a");
    expect(mayBeOutOfDate("a", 1_001)).toBe(true);
    // A change to one never fetched ahead leaves nothing to distrust.
    noteChanged("b");
    expect(mayBeOutOfDate("b", 1_001)).toBe(false);
  });

  it("forgets a fetch the router dropped, and all of them when its cache is refreshed", () => {
    notePrefetched("a", 1_000);
    notePrefetched("b", 1_000);
    forgetPrefetch("a");
    expect(mayBeOutOfDate("a", 1_000_000)).toBe(false);
    expect(mayBeOutOfDate("b", 1_000_000)).toBe(true);
    forgetPrefetches();
    expect(mayBeOutOfDate("b", 1_000_000)).toBe(false);
  });
});
