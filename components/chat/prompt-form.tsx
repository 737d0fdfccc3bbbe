"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ConversationView } from "@/lib/chat/conversation-view";

type Prompt = ConversationView["prompts"][number];

/** Asks for a slash command's arguments, then hands the values back. */
export function PromptForm({
  prompt,
  onSubmit,
  onCancel,
}: {
  prompt: Prompt;
  onSubmit: (args: Record<string, string>) => Promise<{ error?: string; fields?: Record<string, string[]> }>;
  onCancel: () => void;
}) {
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ error?: string; fields?: Record<string, string[]> }>({});
  return (
    <form
      className="grid gap-3 rounded-md border bg-card p-4"
      aria-label={`Arguments of /${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const args = Object.fromEntries(
          prompt.arguments.map((a) => [a.name, String(data.get(a.name) ?? "")]),
        );
        startTransition(async () => setResult(await onSubmit(args)));
      }}
    >
      <div>
        <p className="text-sm font-medium">/{prompt.name}</p>
        {prompt.description ? <p className="text-xs text-muted-foreground">{prompt.description}</p> : null}
      </div>
      {prompt.arguments.map((argument, index) => {
        const id = `prompt-arg-${argument.name}`;
        return (
          <Field
            key={argument.name}
            id={id}
            label={`${argument.name}${argument.required ? "" : " (optional)"}`}
            hint={argument.description}
            error={result.fields?.[argument.name]?.join(" ")}
          >
            <Input id={id} name={argument.name} required={argument.required} autoFocus={index === 0} />
          </Field>
        );
      })}
      {result.error ? <p className="text-xs text-destructive">{result.error}</p> : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Getting prompt…" : "Use prompt"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
