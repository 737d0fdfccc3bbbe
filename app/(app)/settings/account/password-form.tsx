"use client";

import { useActionState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/schemas";
import { changePasswordAction } from "./actions";

export function PasswordForm({ email }: { email: string }) {
  const [state, action] = useActionState<FormState, FormData>(changePasswordAction, {});
  const fieldError = (name: string) => state.fields?.[name]?.[0];
  const hasFieldErrors = Object.keys(state.fields ?? {}).length > 0;
  return (
    <ActionForm action={action} state={state} className="mt-4 grid max-w-md gap-4" noValidate>
      {state.error && !hasFieldErrors ? <Alert>{state.error}</Alert> : null}
      {/* Lets password managers file the new password under the right account. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <Field id="currentPassword" label="Current password" error={fieldError("currentPassword")}>
        <Input
          id="currentPassword"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={!!fieldError("currentPassword")}
        />
      </Field>
      <Field
        id="newPassword"
        label="New password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={fieldError("newPassword")}
      >
        <Input
          id="newPassword"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={!!fieldError("newPassword")}
        />
      </Field>
      <div>
        <SubmitButton pendingText="Changing…">Change password</SubmitButton>
      </div>
    </ActionForm>
  );
}
