"use client";

import { useActionState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { loginAction } from "../actions";

export function LoginForm({
  callbackUrl,
  providerError,
  email,
}: {
  callbackUrl?: string;
  providerError?: string;
  /** The address to sign in with, when known already (right after registering). */
  email?: string;
}) {
  const [state, action] = useActionState<FormState, FormData>(loginAction, {});
  const error = state.error ?? providerError;
  return (
    <ActionForm action={action} state={state} className="grid gap-4" noValidate>
      {error ? <Alert>{error}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl ?? "/"} />
      <Field id="email" label="Email">
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email ?? email}
        />
      </Field>
      <Field id="password" label="Password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
    </ActionForm>
  );
}
