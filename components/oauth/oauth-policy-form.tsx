"use client";

import { useActionState, useState } from "react";
import { setOAuthPolicyAction } from "@/app/(app)/settings/connected-apps/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** Owners' and admins' switch for OAuth clients in the organization, and the hosts clients may send people back to. */
export function OAuthPolicyForm({
  enabled,
  redirectHosts,
}: {
  enabled: boolean;
  redirectHosts: string[] | null;
}) {
  const [state, action] = useActionState<FormState, FormData>(setOAuthPolicyAction, {});
  const [limit, setLimit] = useState(redirectHosts !== null);
  return (
    <ActionForm
      action={action}
      state={state}
      className="mt-4 grid gap-3"
      aria-label="OAuth clients"
      noValidate
    >
      {state.error ? <Alert>{state.error}</Alert> : null}
      {state.success ? <Alert tone="success">{state.success}</Alert> : null}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={enabled} className="mt-1" />
        <span>
          Members may connect apps by signing in
          <span className="block text-xs text-muted-foreground">
            Turning this off disconnects every app connected this way. API keys are not affected.
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="limitHosts"
          checked={limit}
          onChange={(event) => setLimit(event.target.checked)}
          className="mt-1"
        />
        <span>
          Only apps that send people back to these hosts
          <span className="block text-xs text-muted-foreground">
            Apps whose every redirect goes elsewhere are disconnected. Desktop apps come back to 127.0.0.1 or
            localhost.
          </span>
        </span>
      </label>
      {limit ? (
        <Field
          id="redirect-hosts"
          label="Allowed hosts"
          hint="Separated by commas or spaces, like claude.ai, chatgpt.com, vscode.dev, 127.0.0.1"
          error={state.fields?.redirectHosts?.join(" ")}
        >
          <Input
            id="redirect-hosts"
            name="redirectHosts"
            defaultValue={state.values?.redirectHosts ?? redirectHosts?.join(", ") ?? ""}
          />
        </Field>
      ) : null}
      <div>
        <SubmitButton pendingText="Saving…">Save</SubmitButton>
      </div>
    </ActionForm>
  );
}
