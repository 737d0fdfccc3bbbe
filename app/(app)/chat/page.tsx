import { MessageSquarePlus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { getDb } from "@/db/client";
import { requirePageContext } from "@/lib/auth/request-context";
import { listAgents } from "@/lib/chat/agents";
import { listConversations } from "@/lib/chat/conversations";
import { newConversationAction } from "./actions";

export const metadata: Metadata = { title: "Chat" };

export default async function ChatIndexPage() {
  const ctx = await requirePageContext();
  const [conversations, agents] = await Promise.all([
    listConversations(getDb(), ctx),
    listAgents(getDb(), ctx),
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
      {conversations.length === 0 ? (
        <Card>
          <p className="text-sm text-muted-foreground">No conversations yet. Start one.</p>
        </Card>
      ) : (
        <Card className="p-0">
          <ul className="divide-y" aria-label="Conversations">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <Link
                  href={`/chat/${conversation.id}`}
                  className="flex items-center justify-between gap-3 px-5 py-3 hover:bg-muted"
                  data-testid="conversation-row"
                >
                  <span className="truncate text-sm font-medium">{conversation.title}</span>
                  <span className="shrink-0 text-xs text-muted-foreground">
                    {conversation.updatedAt.toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
