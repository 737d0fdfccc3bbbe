"use client";

import { Trash2 } from "lucide-react";
import { useState, useTransition } from "react";
import { deleteAgentAction } from "@/app/(app)/agents/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

export function DeleteAgentButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="grid gap-1">
      <ConfirmButton
        title={`Delete "${name}"?`}
        description="Its conversations stay and continue with the default agent."
        confirmLabel="Delete"
        disabled={pending}
        onConfirm={() => startTransition(async () => setError((await deleteAgentAction(id)).error))}
      >
        <Trash2 className="h-4 w-4" aria-hidden /> Delete agent
      </ConfirmButton>
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
