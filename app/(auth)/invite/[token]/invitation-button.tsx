"use client";

import { useActionState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import type { ButtonProps } from "@/components/ui/button";

/** One button that runs an invitation action, with its error announced where the button is. */
export function InvitationButton({
  action,
  fields,
  pendingText,
  variant,
  children,
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  pendingText: string;
  variant?: ButtonProps["variant"];
  children: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <ActionForm action={formAction} state={state} className="grid gap-3">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {state.error ? <Alert>{state.error}</Alert> : null}
      <SubmitButton pendingText={pendingText} variant={variant} className="w-full">
        {children}
      </SubmitButton>
    </ActionForm>
  );
}
