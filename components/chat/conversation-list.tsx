"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { groupConversations } from "@/lib/chat/conversation-groups";

export interface ConversationRow {
  id: string;
  title: string;
  agentName: string | null;
  /** ISO instant of the last activity. */
  updatedAt: string;
}

/**
 * The user's conversations grouped by day (today, yesterday, the previous 7 days, earlier) in the browser's
 * time zone; the server's first render groups by UTC and the browser regroups once it runs.
 */
export function ConversationList({ conversations }: { conversations: ConversationRow[] }) {
  const [timeZone, setTimeZone] = useState("UTC");
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const groups = groupConversations(
    conversations.map((row) => ({ ...row, updatedAt: new Date(row.updatedAt) })),
    new Date(),
    timeZone,
  );
  return (
    <div className="grid gap-4">
      {groups.map(({ group, items }) => (
        <section key={group} aria-labelledby={`conversations-${group}`} className="grid gap-2">
          <h2 id={`conversations-${group}`} className="text-xs font-medium text-muted-foreground uppercase">
            {group}
          </h2>
          <Card className="p-0">
            <ul className="divide-y" aria-label={`Conversations: ${group}`}>
              {items.map((conversation) => (
                <li key={conversation.id}>
                  <Link
                    href={`/chat/${conversation.id}`}
                    className="flex min-w-0 items-center justify-between gap-3 px-5 py-3 hover:bg-muted"
                    data-testid="conversation-row"
                  >
                    <span className="grid min-w-0">
                      <span className="truncate text-sm font-medium">{conversation.title}</span>
                      {conversation.agentName ? (
                        <span className="truncate text-xs text-muted-foreground">
                          {conversation.agentName}
                        </span>
                      ) : null}
                    </span>
                    <time
                      dateTime={conversation.updatedAt.toISOString()}
                      className="shrink-0 text-xs text-muted-foreground"
                    >
                      {conversation.updatedAt.toLocaleString("en", {
                        timeZone,
                        ...(group === "Today" || group === "Yesterday"
                          ? { timeStyle: "short" }
                          : { dateStyle: "medium" }),
                      })}
                    </time>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </section>
      ))}
    </div>
  );
}
