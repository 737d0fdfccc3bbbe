"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/** A user message's text being edited; sending it makes a new version, the old one stays a branch. */
export function MessageEdit({
  text,
  onSend,
  onCancel,
}: {
  text: string;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(text);
  const empty = draft.trim() === "";
  return (
    <form
      className="grid min-w-0 gap-2 rounded-lg border bg-card p-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!empty) onSend(draft.trim());
      }}
    >
      <textarea
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this message
        autoFocus
        aria-label="Edit your message"
        className="min-h-20 w-full min-w-0 resize-y rounded-md border bg-background px-3 py-2 text-sm"
        value={draft}
        maxLength={100_000}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onCancel();
          }
        }}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={empty}>
          Send
        </Button>
      </div>
    </form>
  );
}
