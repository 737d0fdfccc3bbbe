"use client";

import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

// Within this distance of the end, the reader counts as following the conversation.
const NEAR_END_PX = 96;

const nearEnd = (pane: HTMLElement) => pane.clientHeight + pane.scrollTop >= pane.scrollHeight - NEAR_END_PX;

const toEnd = (pane: HTMLElement | null, behavior: ScrollBehavior) =>
  pane?.scrollTo({ top: pane.scrollHeight, behavior });

/**
 * Keeps the message pane at its newest content as `content` changes (a streamed reply, a new message), unless
 * the reader scrolled up to read; then `away` is true until they come back or `jumpToLatest` is called. The
 * pane opens at its end.
 */
export function useFollowLatest(
  pane: RefObject<HTMLElement | null>,
  content: unknown,
): { away: boolean; jumpToLatest: () => void } {
  const following = useRef(true);
  const [away, setAway] = useState(false);

  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const onScroll = () => {
      following.current = nearEnd(element);
      setAway(!following.current);
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, [pane]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the content changes, by design
  useLayoutEffect(() => {
    if (following.current) toEnd(pane.current, "instant");
  }, [content]);

  const jumpToLatest = useCallback(() => {
    following.current = true;
    setAway(false);
    toEnd(pane.current, "smooth");
  }, [pane]);

  return { away, jumpToLatest };
}
