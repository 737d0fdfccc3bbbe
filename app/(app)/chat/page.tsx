import { MessageSquarePlus } from "lucide-react";
import type { Metadata } from "next";
import { Button } from "@/components/ui/button";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listAgents } from "@/lib/chat/agents";
import { newConversationAction } from "./actions";

export const metadata: Metadata = { title: "Chat" };

/** The chat's start: a new conversation with the agent of one's choice; the sidebar lists the others. */
export default async function ChatIndexPage() {
  const { db, ctx } = await requireSignedInPage();
  const agents = await listAgents(db, ctx);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-4 md:p-8">
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <div>
          <h1 className="text-2xl font-semibold">Chat</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Talk to the organization&apos;s agents; they use the tools of your integrations and the built-in
            knowledge tools. Your conversations are listed beside this page, searchable by title and by what
            was written.
          </p>
        </div>
        <form action={newConversationAction} className="flex min-w-0 flex-wrap items-center gap-2">
          {agents.length > 1 ? (
            <>
              <label htmlFor="new-conversation-agent" className="text-sm text-muted-foreground">
                Agent
              </label>
              <select
                id="new-conversation-agent"
                name="agentId"
                className="h-9 min-w-0 max-w-full rounded-md border bg-card px-2 text-sm"
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
        <p className="text-xs text-muted-foreground">
          Shortcuts: <kbd className="rounded border px-1">Ctrl</kbd>+
          <kbd className="rounded border px-1">Shift</kbd>+<kbd className="rounded border px-1">O</kbd> starts
          a new conversation; <kbd className="rounded border px-1">Esc</kbd> stops an answer; the arrow keys
          move through the list.
        </p>
      </div>
    </div>
  );
}
