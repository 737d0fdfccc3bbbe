"use client";

import type { UIMessage } from "ai";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { forgetPrefetches, mayBeOutOfDate, noteChanged } from "./conversation-prefetch";

/**
 * A conversation opened from a page the sidebar fetched ahead a while ago shows at once, then is asked for again and
 * shows what the server has (unless a turn started meanwhile). Any change this page makes to the conversation marks
 * such a page out of date.
 */
export function useFreshAfterPrefetch({
  conversationId,
  messages,
  initialMessages,
  answering,
  busy,
  adopt,
}: {
  conversationId: string;
  messages: UIMessage[];
  initialMessages: UIMessage[];
  answering: boolean;
  busy: boolean;
  adopt: (fresh: UIMessage[], running: boolean) => void;
}) {
  const router = useRouter();
  const openedWith = useRef(initialMessages);
  const asked = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the conversation opens
  useEffect(() => {
    if (!mayBeOutOfDate(conversationId)) return;
    asked.current = true;
    forgetPrefetches();
    router.refresh();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: when the server's answer arrives
  useEffect(() => {
    if (!asked.current || initialMessages === openedWith.current) return;
    asked.current = false;
    if (!busy) adopt(initialMessages, answering);
  }, [initialMessages]);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of the messages after the first render
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    noteChanged(conversationId);
  }, [messages]);
}
