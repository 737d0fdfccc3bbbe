"use client";

import { useActionState, useEffect, useRef } from "react";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { addMemberAction } from "./actions";

export function AddMemberForm({ canGrantOwner }: { canGrantOwner: boolean }) {
  const [state, action] = useActionState<FormState, FormData>(addMemberAction, {});
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.success) formRef.current?.reset();
  }, [state]);
  return (
    <form
      ref={formRef}
      action={action}
      className="mt-4 grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
      noValidate
    >
      <Field id="member-email" label="Email" error={state.fields?.email?.[0]}>
        <Input id="member-email" name="email" type="email" required defaultValue={state.values?.email} />
      </Field>
      <Field id="member-role" label="Role">
        <Select id="member-role" name="role" defaultValue={state.values?.role ?? "member"}>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
          {canGrantOwner ? <option value="owner">Owner</option> : null}
        </Select>
      </Field>
      <SubmitButton pendingText="Adding…">Add member</SubmitButton>
      <div className="sm:col-span-3">
        {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
        {state.success ? <Alert tone="success">{state.success}</Alert> : null}
      </div>
    </form>
  );
}
