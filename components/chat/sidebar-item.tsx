"use client";

import { Pencil, Pin, PinOff, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { memo, useEffect, useRef, useState, useTransition } from "react";
import {
  deleteConversationAction,
  pinConversationAction,
  renameConversationAction,
} from "@/app/(app)/chat/actions";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Input } from "@/components/ui/input";
import type { ConversationRow } from "@/lib/chat/conversation-row";
import { cn } from "@/lib/cn";
import { forgetPrefetch, notePrefetched } from "./conversation-prefetch";

type Router = ReturnType<typeof useRouter>;
// The page with its data, as `<Link prefetch>` fetches it (the default fetches only down to a loading boundary,
// which this page has none of); the router's type names the kind with an enum it does not export.
const withData = (onInvalidate: () => void) =>
  ({ kind: "full", onInvalidate }) as unknown as NonNullable<Parameters<Router["prefetch"]>[1]>;

// A pointer sweeping down the list, or arrow keys moving through it, fetches only the row it rests on this long.
const RESTING_MS = 80;

// On a phone (no hover) the actions always show; on wider screens, when the row is hovered or focused.
const actionsShown =
  "flex shrink-0 items-center lg:opacity-0 lg:group-focus-within:opacity-100 lg:group-hover:opacity-100";

/** One conversation of the sidebar: a link to it (client navigation), and rename, pin and delete in place. */
export const SidebarItem = memo(function SidebarItem({
  conversation,
  active,
}: {
  conversation: ConversationRow;
  active: boolean;
}) {
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const { id, title, pinned } = conversation;
  const href = `/chat/${id}`;
  // Intent to open it (the pointer resting on the row, or the keyboard's focus) fetches the conversation ahead, so
  // the click finds it in the router's cache: only the rows one points at, not the hundreds a sidebar may hold.
  const resting = useRef<ReturnType<typeof setTimeout>>(undefined);
  const notResting = () => clearTimeout(resting.current);
  // A row removed (deleted, or filtered out by a search) fetches nothing after it is gone.
  useEffect(() => () => clearTimeout(resting.current), []);
  const restsOn = () => {
    notResting();
    if (active) return;
    resting.current = setTimeout(() => {
      notePrefetched(id);
      router.prefetch(
        href,
        withData(() => forgetPrefetch(id)),
      );
    }, RESTING_MS);
  };

  const act = (action: () => Promise<{ error?: string }>, after?: () => void) =>
    startTransition(async () => {
      setError(undefined);
      const result = await action();
      if (result.error) setError(result.error);
      else after?.();
    });

  if (renaming)
    return (
      <li className="px-1 py-1">
        <form
          className="flex items-center gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            const value = String(new FormData(event.currentTarget).get("title") ?? "");
            act(
              () => renameConversationAction(id, value),
              () => setRenaming(false),
            );
          }}
        >
          <Input
            name="title"
            aria-label="New title"
            defaultValue={title}
            maxLength={120}
            autoFocus
            className="h-8"
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                event.preventDefault();
                setRenaming(false);
              }
            }}
          />
          <Button type="submit" size="sm" disabled={pending}>
            Save
          </Button>
        </form>
        {error ? <p className="mt-1 text-xs text-destructive">{error}</p> : null}
      </li>
    );

  return (
    <li className="group" data-testid="sidebar-conversation">
      <div
        className={cn(
          "flex min-w-0 items-center gap-1 rounded-md pr-1",
          active ? "bg-muted" : "hover:bg-muted",
        )}
      >
        {/* Not prefetched for every row in view (each fetch renders the page on the server): on intent only. */}
        <Link
          href={href}
          prefetch={false}
          onPointerEnter={restsOn}
          onPointerLeave={notResting}
          onFocus={restsOn}
          onBlur={notResting}
          // A click fetches the page itself: a fetch ahead still waiting would ask for it twice.
          onClick={notResting}
          aria-current={active ? "page" : undefined}
          className="grid min-w-0 flex-1 rounded-md px-2 py-1.5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-conversation-link
          data-testid="conversation-row"
        >
          <span className={cn("truncate text-sm", active && "font-medium")}>{title}</span>
          {conversation.agentName ? (
            <span className="truncate text-xs text-muted-foreground">{conversation.agentName}</span>
          ) : null}
        </Link>
        <div className={actionsShown}>
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7"
            aria-label={`Rename “${title}”`}
            onClick={() => setRenaming(true)}
          >
            <Pencil className="h-3.5 w-3.5" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7"
            aria-label={pinned ? `Unpin “${title}”` : `Pin “${title}”`}
            disabled={pending}
            onClick={() => act(() => pinConversationAction(id, !pinned))}
          >
            {pinned ? <PinOff className="h-3.5 w-3.5" /> : <Pin className="h-3.5 w-3.5" />}
          </Button>
          <ConfirmButton
            title={`Delete “${title}”?`}
            description="Its messages are deleted for good."
            confirmLabel="Delete"
            disabled={pending}
            trigger={{
              variant: "ghost",
              size: "icon",
              className: "h-7 w-7",
              "aria-label": `Delete “${title}”`,
            }}
            onConfirm={() =>
              act(
                () => deleteConversationAction(id),
                () => {
                  if (active) router.push("/chat");
                },
              )
            }
          >
            <Trash2 className="h-3.5 w-3.5" aria-hidden />
          </ConfirmButton>
        </div>
      </div>
      {error ? <p className="px-2 text-xs text-destructive">{error}</p> : null}
    </li>
  );
});
