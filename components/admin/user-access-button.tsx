"use client";

import { useState, useTransition } from "react";
import { setUserDisabledAction } from "@/app/(app)/admin/actions";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Disables a user after confirming, or enables them again. */
export function UserAccessButton({
  userId,
  email,
  disabled,
}: {
  userId: string;
  email: string;
  disabled: boolean;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const run = (next: boolean) =>
    startTransition(async () => setError((await setUserDisabledAction(userId, next)).error));
  return (
    <div className="grid justify-items-end gap-1">
      {disabled ? (
        <Button variant="secondary" size="sm" disabled={pending} onClick={() => run(false)}>
          Enable
        </Button>
      ) : (
        <ConfirmButton
          title={`Disable ${email}?`}
          description="They are signed out at their next request and cannot sign in until enabled again. Nothing of theirs is deleted."
          confirmLabel="Disable"
          disabled={pending}
          onConfirm={() => run(true)}
        >
          Disable
        </ConfirmButton>
      )}
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
