"use client";

import { useActionState } from "react";
import { createOrganizationAction } from "@/app/(app)/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

export function CreateOrganizationForm() {
  const [state, action] = useActionState<FormState, FormData>(createOrganizationAction, {});
  return (
    <ActionForm action={action} state={state} className="grid gap-4" noValidate>
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Field id="org-name" label="Organization name">
        <Input id="org-name" name="name" required maxLength={100} defaultValue={state.values?.name} />
      </Field>
      <SubmitButton pendingText="Creating…">Create organization</SubmitButton>
    </ActionForm>
  );
}
