"use client";

import { useActionState, useState } from "react";
import { approveConsentAction, denyConsentAction } from "@/app/oauth/consent/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { ToolAccessFields } from "@/components/scope/tool-access-fields";
import { Alert } from "@/components/ui/alert";
import { toolAccessValues } from "@/lib/api-keys/tool-access-schema";
import type { ConsentView } from "@/lib/oauth-server/consent-view";

/**
 * The consent form: who is asking and where it sends the person back, the organization to connect (those that do
 * not let this client in are shown, with why, but cannot be chosen), what the client may use there, and
 * Allow or Deny.
 */
export function ConsentForm({ view }: { view: ConsentView }) {
  const [approved, approve] = useActionState<FormState, FormData>(approveConsentAction, {});
  const [denied, deny] = useActionState<FormState, FormData>(denyConsentAction, {});
  const [orgId, setOrgId] = useState(view.preselectedOrgId ?? "");
  const org = view.organizations.find((candidate) => candidate.id === orgId);
  const state = approved.error ? approved : denied;
  const fieldError = (...names: string[]) =>
    names.flatMap((name) => approved.fields?.[name] ?? []).join(" ") || undefined;
  return (
    <ActionForm
      // Deny is the form's other submit button; which one was pressed comes with the form.
      action={(form) => (form.get("intent") === "deny" ? deny(form) : approve(form))}
      state={state}
      className="grid gap-5"
      aria-label="Connect an app"
    >
      <input type="hidden" name="request" value={view.requestId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Organization</legend>
        {view.organizations.map((candidate) => (
          <label key={candidate.id} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="orgId"
              value={candidate.id}
              checked={orgId === candidate.id}
              disabled={!!candidate.refusal}
              onChange={() => setOrgId(candidate.id)}
              className="mt-1"
            />
            <span>
              {candidate.name}
              {candidate.refusal ? (
                <span className="block text-xs text-muted-foreground">{candidate.refusal}</span>
              ) : null}
            </span>
          </label>
        ))}
      </fieldset>
      {org && !org.refusal ? (
        <div className="grid gap-3" key={org.id}>
          <ToolAccessFields
            id="consent-access"
            choices={org.choices}
            initial={toolAccessValues(org.proposed.scope)}
            fieldError={fieldError}
          />
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="metaToolsOnly"
              defaultChecked={org.proposed.metaToolsOnly}
              className="mt-1"
            />
            <span>
              List only <code>find_tools</code> and <code>call_tool</code>
              <span className="block text-xs text-muted-foreground">
                The app searches and calls every tool it may use through these two, which keeps its context
                small.
              </span>
            </span>
          </label>
        </div>
      ) : (
        <Alert tone="info">
          None of your organizations lets this app in. Ask an owner or admin to allow OAuth clients in
          Settings → Connected apps.
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <SubmitButton pendingText="Connecting…" disabled={!org || !!org.refusal}>
          Allow
        </SubmitButton>
        <SubmitButton variant="secondary" name="intent" value="deny" formNoValidate>
          Deny
        </SubmitButton>
      </div>
    </ActionForm>
  );
}
