"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { setChatModelsAction } from "./actions";

/** The endpoint's listed models to tick, and names to type for models it serves but does not list. */
export function ChatModelsForm({ listed, allowed }: { listed: string[]; allowed: string[] }) {
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<{ error?: string; saved?: string[] }>({});
  const typed = allowed.filter((model) => !listed.includes(model));
  return (
    <form
      className="grid gap-4"
      aria-label="Allowed chat models"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const models = [
          ...form.getAll("listed").map(String),
          ...String(form.get("typed") ?? "")
            .split(/[\s,]+/)
            .filter(Boolean),
        ];
        startTransition(async () => setOutcome(await setChatModelsAction(models)));
      }}
    >
      {listed.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Models the endpoint lists</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {listed.map((model) => (
              <label key={model} className="flex min-w-0 items-center gap-2 text-sm">
                <input type="checkbox" name="listed" value={model} defaultChecked={allowed.includes(model)} />
                <code className="min-w-0 [overflow-wrap:anywhere]">{model}</code>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <label className="grid gap-1 text-sm">
        <span className="font-medium">{listed.length > 0 ? "Other models" : "Models"}</span>
        <span className="text-xs text-muted-foreground">One name per line, as the endpoint spells it.</span>
        <textarea
          name="typed"
          rows={3}
          defaultValue={typed.join("\n")}
          className="rounded-md border bg-card px-3 py-2 font-mono text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          Save
        </Button>
        <p role="status" className="text-sm">
          {outcome.error ? (
            <span className="text-destructive">{outcome.error}</span>
          ) : outcome.saved ? (
            `Saved: ${outcome.saved.length === 0 ? "only each agent's own model" : outcome.saved.join(", ")}.`
          ) : null}
        </p>
      </div>
    </form>
  );
}
