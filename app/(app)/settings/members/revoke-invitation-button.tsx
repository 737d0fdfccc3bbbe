"use client";

import { useState, useTransition } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { revokeInvitationAction } from "./actions";

export function RevokeInvitationButton({
  id,
  email,
  disabled,
}: {
  id: string;
  email: string;
  disabled?: boolean;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <ConfirmButton
        title={`Revoke the invitation for ${email}?`}
        description="The link stops working at once. You can invite them again later."
        confirmLabel="Revoke"
        disabled={pending || disabled}
        onConfirm={() => startTransition(async () => setError((await revokeInvitationAction(id)).error))}
      >
        Revoke
      </ConfirmButton>
      {error ? (
        <p role="alert" className="basis-full text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
