"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

// Within this distance of the end, the reader counts as following the conversation.
const NEAR_END_PX = 96;

const nearEnd = () =>
  window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - NEAR_END_PX;

const toEnd = (behavior: ScrollBehavior) =>
  window.scrollTo({ top: document.documentElement.scrollHeight, behavior });

/**
 * Keeps the page at its newest content as `content` changes (a streamed reply, a new message), unless the
 * reader scrolled up to read; then `away` is true until they come back or `jumpToLatest` is called. The page
 * opens at its end.
 */
export function useFollowLatest(content: unknown): { away: boolean; jumpToLatest: () => void } {
  const following = useRef(true);
  const [away, setAway] = useState(false);

  useEffect(() => {
    const onScroll = () => {
      following.current = nearEnd();
      setAway(!following.current);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the content changes, by design
  useLayoutEffect(() => {
    if (following.current) toEnd("instant");
  }, [content]);

  const jumpToLatest = useCallback(() => {
    following.current = true;
    setAway(false);
    toEnd("smooth");
  }, []);

  return { away, jumpToLatest };
}
