"use client";

import { useState, useTransition } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Select } from "@/components/ui/input";
import { changeRoleAction, removeMemberAction } from "./actions";

export function MemberActions({
  member,
  actorRole,
}: {
  member: { userId: string; email: string; role: string };
  actorRole: string;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const locked = actorRole !== "owner" && member.role === "owner";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Select
        aria-label={`Role of ${member.email}`}
        className="w-32"
        defaultValue={member.role}
        disabled={pending || locked}
        onChange={(event) => {
          const select = event.currentTarget;
          const role = select.value;
          startTransition(async () => {
            const result = await changeRoleAction(member.userId, role);
            setError(result.error);
            if (result.error) select.value = member.role;
          });
        }}
      >
        <option value="member">Member</option>
        <option value="admin">Admin</option>
        {actorRole === "owner" || member.role === "owner" ? <option value="owner">Owner</option> : null}
      </Select>
      <ConfirmButton
        title={`Remove ${member.email}?`}
        description="They lose access to this organization at once. Their account and other organizations stay."
        confirmLabel="Remove"
        disabled={pending || locked}
        onConfirm={() =>
          startTransition(async () => {
            const result = await removeMemberAction(member.userId);
            setError(result.error);
          })
        }
      >
        Remove
      </ConfirmButton>
      {error ? (
        <p role="alert" className="basis-full text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
