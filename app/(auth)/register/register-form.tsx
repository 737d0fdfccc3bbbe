"use client";

import { type ReactNode, useActionState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/schemas";
import { registerAction } from "../actions";
import { registerWithInvitationAction } from "../invite/[token]/actions";
import { LoginForm } from "../login/login-form";

/**
 * Creates an account, then offers to sign in with it. With an invitation, the address is the invited one (shown, not editable) and the account
 * joins the inviting organization instead of getting one of its own.
 */
export function RegisterForm({
  invitation,
  heading,
}: {
  invitation?: { token: string; email: string };
  /** The page's title, shown while the form is: once registered, the card is the sign-in form, titled so. */
  heading?: ReactNode;
} = {}) {
  const [state, action] = useActionState<FormState, FormData>(
    invitation ? registerWithInvitationAction : registerAction,
    {},
  );
  const fieldError = (name: string) => state.fields?.[name]?.[0];
  const hasFieldErrors = Object.keys(state.fields ?? {}).length > 0;
  // Registered (or the address was taken: the answer is the same): signing in is the next step, right here.
  if (state.success && !invitation) {
    return (
      <div className="grid gap-4" data-testid="registered">
        {heading ? <h1 className="text-xl font-semibold">Sign in</h1> : null}
        <Alert tone="success">{state.success}</Alert>
        <LoginForm email={state.values?.email} />
      </div>
    );
  }
  return (
    <>
      {heading}
      <ActionForm action={action} state={state} className="grid gap-4" noValidate>
        {state.error && !hasFieldErrors ? <Alert>{state.error}</Alert> : null}
        {invitation ? <input type="hidden" name="invitation" value={invitation.token} /> : null}
        <Field id="name" label="Your name" error={fieldError("name")}>
          <Input
            id="name"
            name="name"
            autoComplete="name"
            required
            defaultValue={state.values?.name}
            aria-invalid={!!fieldError("name")}
          />
        </Field>
        <Field
          id="email"
          label="Email"
          error={fieldError("email")}
          hint={invitation ? "The invitation is for this address." : undefined}
        >
          {invitation ? (
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              readOnly
              value={invitation.email}
              aria-invalid={!!fieldError("email")}
              className="bg-muted"
            />
          ) : (
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={state.values?.email}
              aria-invalid={!!fieldError("email")}
            />
          )}
        </Field>
        <Field
          id="password"
          label="Password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={fieldError("password")}
        >
          <Input
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            aria-invalid={!!fieldError("password")}
          />
        </Field>
        {invitation ? null : (
          <Field id="organizationName" label="Organization name" hint="Optional: you can rename it later.">
            <Input
              id="organizationName"
              name="organizationName"
              defaultValue={state.values?.organizationName}
            />
          </Field>
        )}
        <SubmitButton pendingText="Creating your account…">
          {invitation ? "Create account and join" : "Create account"}
        </SubmitButton>
      </ActionForm>
    </>
  );
}
