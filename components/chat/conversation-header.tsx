"use client";

import { Braces, FileText, Pencil, RefreshCw, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type ReactNode, useState, useTransition } from "react";
import { deleteConversationAction, renameConversationAction } from "@/app/(app)/chat/actions";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Input } from "@/components/ui/input";
import { RunningFor } from "@/components/ui/running-for";
import { useCancellable } from "@/components/ui/use-cancellable";
import type { ConversationView } from "@/lib/chat/conversation-view";
import { toolApprovalSummary } from "@/lib/chat/tool-approval-schema";
import { formatTokens } from "./answer-facts";
import { DiscoveryBadge } from "./discovery-badge";
import { startDiscovery } from "./start-discovery";
import { StartProgress, useStartProgress } from "./start-progress";
import { ToolsPanel } from "./tools-panel";

/**
 * Title (renamable), delete, the agent, the integrations found at conversation start (with a way to look
 * again), and the conversation's tool switches.
 */
export function ConversationHeader({
  conversationId,
  title,
  view,
  model,
  tokens,
}: {
  conversationId: string;
  title: string;
  view: ConversationView | null;
  /** The conversation's model picker; null in offline mode. */
  model?: ReactNode;
  /** The tokens of the conversation's answers, where the model reported them. */
  tokens?: { inputTokens: number; outputTokens: number } | null;
}) {
  const discovery = view?.discovery ?? null;
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const refreshing = useCancellable();
  const progress = useStartProgress();

  async function refresh() {
    setError(undefined);
    const outcome = await refreshing.start((signal) =>
      startDiscovery(conversationId, true, progress.onEvent, signal),
    );
    if (outcome === "cancelled") return;
    setError(outcome);
    router.refresh();
  }

  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        {editing ? (
          <form
            className="flex flex-1 gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              const value = String(new FormData(event.currentTarget).get("title") ?? "");
              startTransition(async () => {
                const result = await renameConversationAction(conversationId, value);
                setError(result.error);
                if (!result.error) setEditing(false);
              });
            }}
          >
            <Input
              name="title"
              aria-label="Conversation title"
              defaultValue={title}
              autoFocus
              maxLength={120}
            />
            <Button type="submit" disabled={pending}>
              Save
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <h1 className="flex min-w-0 items-center gap-2 text-xl font-semibold">
            <span className="truncate">{title}</span>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Rename conversation"
              onClick={() => setEditing(true)}
            >
              <Pencil className="h-4 w-4" />
            </Button>
          </h1>
        )}
        <div className="flex shrink-0 items-center gap-1">
          <ExportLinks conversationId={conversationId} />
          <ConfirmButton
            title="Delete this conversation?"
            description="Its messages are deleted for good."
            confirmLabel="Delete"
            onConfirm={() =>
              startTransition(async () => {
                const result = await deleteConversationAction(conversationId);
                if (result.error) setError(result.error);
                else router.push("/chat");
              })
            }
          >
            <Trash2 className="h-4 w-4" aria-hidden /> Delete
          </ConfirmButton>
        </div>
      </div>
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
      {model || tokens ? (
        <div className="flex flex-wrap items-center gap-3 text-xs text-muted-foreground">
          {model}
          {tokens ? (
            <span data-testid="conversation-tokens">
              Tokens: {formatTokens(tokens.inputTokens)} in · {formatTokens(tokens.outputTokens)} out
            </span>
          ) : null}
        </div>
      ) : null}
      {view ? (
        <div className="flex flex-wrap items-start gap-3 text-xs text-muted-foreground">
          <span className="py-1.5" data-testid="conversation-agent">
            Agent: <span className="font-medium text-foreground">{view.agentName}</span>
            {toolApprovalSummary[view.toolApproval] ? ` · ${toolApprovalSummary[view.toolApproval]}` : ""}
          </span>
          <ToolsPanel
            key={`${view.disabledIntegrationIds.join()}|${view.disabledTools.join()}`}
            conversationId={conversationId}
            view={view}
          />
        </div>
      ) : null}
      {discovery && refreshing.running ? (
        <div className="grid gap-2" data-testid="refresh-progress">
          <StartProgress chips={progress.chips} label="Asking the agent's integrations again…" />
          <div className="flex items-center gap-2">
            <RunningFor run={refreshing} testId="refresh-elapsed" />
          </div>
        </div>
      ) : discovery ? (
        <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="discovery-banner">
          {discovery.integrations.map((integration) => (
            <DiscoveryBadge key={integration.integrationId} integration={integration} />
          ))}
          <Button variant="ghost" size="sm" onClick={() => void refresh()}>
            <RefreshCw className="h-3 w-3" aria-hidden /> Refresh integrations
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** Downloads of the conversation as Markdown and as JSON (the server reads it whole, as stored). */
function ExportLinks({ conversationId }: { conversationId: string }) {
  const link = buttonClasses({ variant: "ghost", size: "sm" });
  const href = (format: string) => `/api/chat/${conversationId}/export?format=${format}`;
  // Icons only on phones, so the header fits at 320 px.
  return (
    <div className="flex items-center">
      <a className={link} href={href("markdown")} download aria-label="Export as Markdown">
        <FileText className="h-4 w-4" aria-hidden /> <span className="hidden sm:inline">Markdown</span>
      </a>
      <a className={link} href={href("json")} download aria-label="Export as JSON">
        <Braces className="h-4 w-4" aria-hidden /> <span className="hidden sm:inline">JSON</span>
      </a>
    </div>
  );
}
