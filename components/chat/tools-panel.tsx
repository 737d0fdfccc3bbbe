"use client";

import { Wrench } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setToolTogglesAction } from "@/app/(app)/chat/[id]/actions";
import type { ConversationView } from "@/lib/chat/conversation-view";

/** Switches integrations and single tools off (and on again) for this conversation only. */
export function ToolsPanel({ conversationId, view }: { conversationId: string; view: ConversationView }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const [offIntegrations, setOffIntegrations] = useState(() => new Set(view.disabledIntegrationIds));
  const [offTools, setOffTools] = useState(() => new Set(view.disabledTools));
  const connected = (view.discovery?.integrations ?? []).filter(
    (i) => i.status === "connected" || i.status === "stale",
  );
  const groups = [
    ...connected.map((i) => ({
      id: i.integrationId as string | null,
      name: i.name,
      tools: view.tools.filter((t) => t.integrationId === i.integrationId),
    })),
    { id: null, name: "Built-in", tools: view.tools.filter((t) => t.source === "builtin") },
    { id: null, name: "Capabilities", tools: view.tools.filter((t) => t.source === "capability") },
  ].filter((group) => group.tools.length > 0);
  const enabledCount = view.tools.filter(
    (t) => !offTools.has(t.name) && !(t.integrationId && offIntegrations.has(t.integrationId)),
  ).length;

  function save(nextIntegrations: Set<string>, nextTools: Set<string>) {
    setOffIntegrations(nextIntegrations);
    setOffTools(nextTools);
    startTransition(async () => {
      const result = await setToolTogglesAction(conversationId, {
        disabledIntegrationIds: [...nextIntegrations],
        disabledTools: [...nextTools],
      });
      setError(result.error);
      router.refresh();
    });
  }

  const toggle = <T,>(set: Set<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.delete(value);
    else next.add(value);
    return next;
  };

  return (
    <details className="rounded-md border text-sm" data-testid="tools-panel">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-1.5">
        <Wrench className="h-3.5 w-3.5" aria-hidden />
        Tools: {enabledCount} of {view.tools.length} on{pending ? "…" : ""}
      </summary>
      <div className="grid max-h-80 gap-4 overflow-y-auto border-t px-3 py-3">
        {error ? <p className="text-xs text-destructive">{error}</p> : null}
        {groups.length === 0 ? (
          <p className="text-muted-foreground">This conversation has no tools.</p>
        ) : null}
        {groups.map((group) => {
          const groupOn = group.id === null || !offIntegrations.has(group.id);
          return (
            <fieldset key={group.id ?? group.name} className="grid gap-1.5">
              <legend className="mb-1 font-medium">
                {group.id ? (
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={groupOn}
                      onChange={(event) =>
                        save(toggle(offIntegrations, group.id as string, event.target.checked), offTools)
                      }
                    />
                    {group.name}
                  </label>
                ) : (
                  group.name
                )}
              </legend>
              {group.tools.map((tool) => (
                <label
                  key={tool.name}
                  className="ml-5 flex items-start gap-2 text-xs"
                  title={tool.description || undefined}
                >
                  <input
                    type="checkbox"
                    disabled={!groupOn}
                    checked={groupOn && !offTools.has(tool.name)}
                    onChange={(event) =>
                      save(offIntegrations, toggle(offTools, tool.name, event.target.checked))
                    }
                  />
                  <code>{tool.name}</code>
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
    </details>
  );
}
