"use client";

import { useState, useTransition } from "react";
import { revokeGrantAction } from "@/app/(app)/settings/connected-apps/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

export function RevokeGrantButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <>
      <ConfirmButton
        title={`Disconnect ${name}?`}
        description="Its access and refresh tokens stop working at once; to use it again, connect it again."
        confirmLabel="Revoke"
        disabled={pending}
        onConfirm={() => startTransition(async () => setError((await revokeGrantAction(id)).error))}
      >
        Revoke
      </ConfirmButton>
      {error ? <p className="basis-full text-xs text-destructive">{error}</p> : null}
    </>
  );
}
