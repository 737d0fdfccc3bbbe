import { MessageSquarePlus, Search } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { ConversationList } from "@/components/chat/conversation-list";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listAgents } from "@/lib/chat/agents";
import { listConversations } from "@/lib/chat/conversations";
import { newConversationAction } from "./actions";

export const metadata: Metadata = { title: "Chat" };

export default async function ChatIndexPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { db, ctx } = await requireSignedInPage();
  const { q } = await searchParams;
  const search = typeof q === "string" ? q.slice(0, 200) : "";
  const [conversations, agents] = await Promise.all([
    listConversations(db, ctx, { search }),
    listAgents(db, ctx),
  ]);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Chat</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Talk to the organization&apos;s agents; they use the tools of your integrations and the built-in
            knowledge tools.
          </p>
        </div>
        <form action={newConversationAction} className="flex items-center gap-2">
          {agents.length > 1 ? (
            <>
              <label htmlFor="new-conversation-agent" className="text-sm text-muted-foreground">
                Agent
              </label>
              <select
                id="new-conversation-agent"
                name="agentId"
                className="h-9 rounded-md border bg-card px-2 text-sm"
                defaultValue={agents[0]?.id}
              >
                {agents.map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <Button type="submit">
            <MessageSquarePlus className="h-4 w-4" aria-hidden /> New conversation
          </Button>
        </form>
      </div>
      <search>
        <form action="/chat" className="flex max-w-md gap-2">
          <label htmlFor="conversation-search" className="sr-only">
            Search conversations
          </label>
          <Input
            id="conversation-search"
            name="q"
            type="search"
            defaultValue={search}
            placeholder="Search conversations by title"
          />
          <Button type="submit" variant="secondary">
            <Search className="h-4 w-4" aria-hidden /> Search
          </Button>
        </form>
      </search>
      {conversations.length === 0 ? (
        <Card>
          {search ? (
            <p className="text-sm text-muted-foreground">
              No conversation title contains “{search}”.{" "}
              <Link href="/chat" className="text-primary underline">
                Show all conversations
              </Link>
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">No conversations yet. Start one.</p>
          )}
        </Card>
      ) : (
        <ConversationList
          conversations={conversations.map((c) => ({ ...c, updatedAt: c.updatedAt.toISOString() }))}
        />
      )}
    </div>
  );
}
