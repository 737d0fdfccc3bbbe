"use client";

import { Trash2 } from "lucide-react";
import { useState, useTransition } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** A delete button behind a confirmation, calling a server action and showing its error, if any. */
export function DeleteWithConfirm({
  label,
  title,
  description,
  action,
}: {
  label: string;
  title: string;
  description: string;
  action: () => Promise<{ error?: string }>;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="grid gap-1">
      <ConfirmButton
        title={title}
        description={description}
        confirmLabel="Delete"
        disabled={pending}
        onConfirm={() => startTransition(async () => setError((await action()).error))}
      >
        <Trash2 className="h-4 w-4" aria-hidden /> {label}
      </ConfirmButton>
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
