"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { setTextOnlyModelsAction } from "./actions";

/** Each model a conversation can use, to mark as text only: an attached image then reaches it as a note. */
export function TextOnlyModelsForm({ models, textOnly }: { models: string[]; textOnly: string[] }) {
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<{ error?: string; saved?: string[] }>({});
  return (
    <form
      className="grid gap-4"
      aria-label="Text-only models"
      onSubmit={(event) => {
        event.preventDefault();
        const marked = new FormData(event.currentTarget).getAll("textOnly").map(String);
        startTransition(async () => setOutcome(await setTextOnlyModelsAction(marked)));
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Text only (cannot see images)</legend>
        <div className="grid gap-1 sm:grid-cols-2">
          {models.map((model) => (
            <label key={model} className="flex min-w-0 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="textOnly"
                value={model}
                defaultChecked={textOnly.includes(model)}
              />
              <code className="min-w-0 [overflow-wrap:anywhere]">{model}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          Save
        </Button>
        <p role="status" className="text-sm">
          {outcome.error ? (
            <span className="text-destructive">{outcome.error}</span>
          ) : outcome.saved ? (
            `Saved: ${outcome.saved.length === 0 ? "every model takes images" : `text only: ${outcome.saved.join(", ")}`}.`
          ) : null}
        </p>
      </div>
    </form>
  );
}
