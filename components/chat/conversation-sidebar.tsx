"use client";

import { Loader2, MessageSquarePlus, PanelLeftClose, X } from "lucide-react";
import { usePathname } from "next/navigation";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { newConversationAction, searchConversationsAction } from "@/app/(app)/chat/actions";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { groupConversations } from "@/lib/chat/conversation-groups";
import type { ConversationRow } from "@/lib/chat/conversation-row";
import { SidebarItem } from "./sidebar-item";

// Long enough that typing a word sends one search, short enough to feel immediate.
const SEARCH_DEBOUNCE_MS = 250;

/** Arrow keys, Home and End move between the list's conversations, as in a menu. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const keys = ["ArrowDown", "ArrowUp", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const links = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-conversation-link]")];
  if (links.length === 0) return;
  event.preventDefault();
  const current = links.indexOf(document.activeElement as HTMLElement);
  const next =
    event.key === "Home"
      ? 0
      : event.key === "End"
        ? links.length - 1
        : event.key === "ArrowDown"
          ? Math.min(links.length - 1, current + 1)
          : Math.max(0, current < 0 ? 0 : current - 1);
  links[next]?.focus();
}

/** The search's results for the query typed, asked of the server once typing pauses. */
function useSearch(query: string, revision: unknown) {
  const [results, setResults] = useState<{ query: string; rows: ConversationRow[]; error?: string }>();
  const latest = useRef(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change to the list (revision) searches again
  useEffect(() => {
    latest.current = query.trim();
    if (!query.trim()) {
      setResults(undefined);
      return;
    }
    const timer = setTimeout(async () => {
      const asked = query.trim();
      const answer = await searchConversationsAction(asked).catch(() => ({
        error: "Could not reach the server. Try again.",
        conversations: undefined,
      }));
      // A slower answer to an older query never replaces a newer one.
      if (latest.current === asked)
        setResults({ query: asked, rows: answer.conversations ?? [], error: answer.error });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, revision]);
  const searching = query.trim() !== "" && results?.query !== query.trim();
  return { results: query.trim() ? results : undefined, searching };
}

/**
 * The user's conversations beside the open one: a new conversation, a search over titles and what was written,
 * pinned ones first and the rest by day, each one renamed, pinned or deleted in place.
 */
export function ConversationSidebar({
  conversations,
  onClose,
  onCollapse,
}: {
  conversations: ConversationRow[];
  /** Closes the phone's drawer (shown there only). */
  onClose: () => void;
  /** Folds the sidebar away on wider screens. */
  onCollapse: () => void;
}) {
  const pathname = usePathname();
  const activeId = pathname.startsWith("/chat/") ? pathname.slice("/chat/".length) : null;
  const [query, setQuery] = useState("");
  const { results, searching } = useSearch(query, conversations);
  const [timeZone, setTimeZone] = useState("UTC");
  // The server groups by UTC; the browser regroups by its own days once it runs.
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const rows = results?.rows ?? conversations;
  // Grouped again only when the list changes, not on each switch of conversation (which changes the path); the
  // rows keep their identity, so only the rows whose highlight changed render again.
  const groups = useMemo(
    () =>
      groupConversations(
        rows.map((row) => ({ row, pinned: row.pinned, updatedAt: new Date(row.updatedAt) })),
        new Date(),
        timeZone,
      ),
    [rows, timeZone],
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3">
      <div className="flex items-center gap-1">
        <form action={newConversationAction} className="min-w-0 flex-1">
          <Button type="submit" variant="secondary" className="w-full justify-start" title="Ctrl+Shift+O">
            <MessageSquarePlus className="h-4 w-4" aria-hidden /> New chat
          </Button>
        </form>
        <Button
          variant="ghost"
          size="icon"
          className="hidden lg:inline-flex"
          aria-label="Hide conversations"
          aria-controls="conversation-sidebar"
          onClick={onCollapse}
        >
          <PanelLeftClose className="h-4 w-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="lg:hidden"
          aria-label="Close conversations"
          onClick={onClose}
        >
          <X className="h-4 w-4" />
        </Button>
      </div>
      <search>
        <label htmlFor="conversation-search" className="sr-only">
          Search conversations
        </label>
        <Input
          id="conversation-search"
          type="search"
          value={query}
          maxLength={200}
          placeholder="Search titles and messages"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") setQuery("");
          }}
        />
      </search>
      <p className="sr-only" aria-live="polite">
        {results ? `${results.rows.length} conversations found` : ""}
      </p>
      <nav
        aria-label="Conversations"
        className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1"
        onKeyDown={moveFocus}
      >
        {searching ? (
          <p className="flex items-center gap-2 px-2 text-sm text-muted-foreground">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Searching…
          </p>
        ) : results?.error ? (
          <p className="px-2 text-sm text-destructive">{results.error}</p>
        ) : rows.length === 0 ? (
          <p className="px-2 text-sm text-muted-foreground">
            {results ? `No conversation mentions “${results.query}”.` : "No conversations yet. Start one."}
          </p>
        ) : (
          <div className="grid gap-3">
            {groups.map(({ group, items }) => (
              <section key={group} aria-labelledby={`conversations-${group}`} className="grid gap-1">
                <h2
                  id={`conversations-${group}`}
                  className="px-2 text-xs font-medium text-muted-foreground uppercase"
                >
                  {group}
                </h2>
                <ul className="grid gap-0.5" aria-label={`Conversations: ${group}`}>
                  {items.map(({ row }) => (
                    <SidebarItem key={row.id} conversation={row} active={row.id === activeId} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </nav>
    </div>
  );
}
