"use client";

import { PanelLeftOpen } from "lucide-react";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState, useTransition } from "react";
import { newConversationAction } from "@/app/(app)/chat/actions";
import { Button } from "@/components/ui/button";
import type { ConversationRow } from "@/lib/chat/conversation-row";
import { cn } from "@/lib/cn";
import { ConversationSidebar } from "./conversation-sidebar";

const COLLAPSED_KEY = "switchboard.chat.sidebar-collapsed";

/** Ctrl+Shift+O (Cmd+Shift+O on a Mac) starts a new conversation, as in ChatGPT. */
const isNewChatShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === "o";

/**
 * The chat's frame: the conversation sidebar beside the page (folded away on request on wider screens, a drawer
 * opened by a button on phones), and the shortcut for a new conversation.
 */
export function ChatLayout({
  conversations,
  children,
}: {
  conversations: ConversationRow[];
  children: ReactNode;
}) {
  const pathname = usePathname();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const [, startTransition] = useTransition();
  const aside = useRef<HTMLElement>(null);

  // The choice to fold the sidebar away is kept in this browser.
  useEffect(() => setCollapsed(localStorage.getItem(COLLAPSED_KEY) === "true"), []);
  const collapse = (value: boolean) => {
    setCollapsed(value);
    localStorage.setItem(COLLAPSED_KEY, String(value));
  };
  // The drawer closes once a conversation is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => setDrawerOpen(false), [pathname]);
  // An opened drawer takes the focus, on the conversation shown (or its first control).
  useEffect(() => {
    if (!drawerOpen) return;
    const target =
      aside.current?.querySelector<HTMLElement>("[aria-current=page]") ??
      aside.current?.querySelector<HTMLElement>("button");
    target?.focus();
  }, [drawerOpen]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isNewChatShortcut(event)) {
        event.preventDefault();
        startTransition(() => newConversationAction());
      } else if (event.key === "Escape" && drawerOpen) setDrawerOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  return (
    <div className="flex min-h-0 min-w-0 flex-1">
      {drawerOpen ? (
        <button
          type="button"
          aria-label="Close conversations"
          tabIndex={-1}
          className="fixed inset-0 z-30 bg-black/40 lg:hidden"
          onClick={() => setDrawerOpen(false)}
        />
      ) : null}
      <aside
        ref={aside}
        id="conversation-sidebar"
        aria-label="Conversation list"
        className={cn(
          "min-h-0 w-72 shrink-0 flex-col border-r bg-card",
          drawerOpen
            ? "fixed inset-y-0 left-0 z-40 flex max-w-[85%] shadow-lg lg:static lg:shadow-none"
            : "hidden",
          collapsed ? "lg:hidden" : "lg:flex",
        )}
        data-testid="conversation-sidebar"
      >
        <ConversationSidebar
          conversations={conversations}
          onClose={() => setDrawerOpen(false)}
          onCollapse={() => collapse(true)}
        />
      </aside>
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <div
          className={cn(
            "shrink-0 items-center gap-2 border-b px-2 py-1",
            collapsed ? "flex" : "flex lg:hidden",
          )}
        >
          <Button
            variant="ghost"
            size="sm"
            className="lg:hidden"
            aria-controls="conversation-sidebar"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <PanelLeftOpen className="h-4 w-4" aria-hidden /> Conversations
          </Button>
          {collapsed ? (
            <Button
              variant="ghost"
              size="sm"
              className="hidden lg:inline-flex"
              aria-controls="conversation-sidebar"
              aria-expanded={false}
              onClick={() => collapse(false)}
            >
              <PanelLeftOpen className="h-4 w-4" aria-hidden /> Show conversations
            </Button>
          ) : null}
        </div>
        {children}
      </div>
    </div>
  );
}
