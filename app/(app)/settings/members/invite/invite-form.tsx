"use client";

import { Copy } from "lucide-react";
import { useActionState, useEffect, useRef, useState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { createInvitationAction, type InvitationFormState } from "../actions";

/** Invites an email with a role and shows the new link once, focused and ready to copy. */
export function InviteForm({ canInviteOwner }: { canInviteOwner: boolean }) {
  const [state, action] = useActionState<InvitationFormState, FormData>(createInvitationAction, {});
  const linkRef = useRef<HTMLInputElement>(null);
  const [copyNote, setCopyNote] = useState("");
  useEffect(() => {
    setCopyNote("");
    if (!state.link) return;
    linkRef.current?.focus();
    linkRef.current?.select();
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(state.link ?? "");
      setCopyNote("Link copied to the clipboard.");
    } catch {
      linkRef.current?.select();
      setCopyNote("Copying did not work here: the link is selected, copy it with your keyboard.");
    }
  }

  return (
    <div className="grid gap-4">
      <ActionForm
        action={action}
        state={state}
        className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
        noValidate
      >
        <Field id="invite-email" label="Email" error={state.fields?.email?.[0]}>
          <Input
            id="invite-email"
            name="email"
            type="email"
            autoComplete="off"
            required
            defaultValue={state.values?.email}
            aria-invalid={!!state.fields?.email}
            aria-describedby={state.fields?.email ? "invite-email-error" : undefined}
          />
        </Field>
        <Field id="invite-role" label="Role" error={state.fields?.role?.[0]}>
          <Select id="invite-role" name="role" defaultValue={state.values?.role ?? "member"}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {canInviteOwner ? <option value="owner">Owner</option> : null}
          </Select>
        </Field>
        <SubmitButton pendingText="Creating…">Create invitation</SubmitButton>
        {state.error && !state.fields ? (
          <div className="sm:col-span-3">
            <Alert>{state.error}</Alert>
          </div>
        ) : null}
      </ActionForm>
      {state.link ? (
        <div className="grid gap-3" data-testid="new-invitation">
          <Alert tone="success">
            {state.success} Copy the link now and send it to them: it is shown only once.
          </Alert>
          <div className="grid gap-1.5">
            <label htmlFor="invitation-link" className="text-sm font-medium">
              Invitation link
            </label>
            <div className="flex items-center gap-2">
              <Input
                ref={linkRef}
                id="invitation-link"
                readOnly
                value={state.link}
                onFocus={(event) => event.currentTarget.select()}
                className="font-mono text-xs"
                data-testid="invitation-link"
              />
              <Button variant="secondary" onClick={copy}>
                <Copy className="h-4 w-4" aria-hidden /> Copy link
              </Button>
            </div>
            <p aria-live="polite" className="min-h-4 text-xs text-muted-foreground" data-testid="copy-status">
              {copyNote}
            </p>
          </div>
          {state.mail === "sent" ? (
            <Alert tone="info">It was also mailed to {state.email}.</Alert>
          ) : state.mail === "failed" ? (
            <Alert>
              Mailing the invitation to {state.email} failed. The invitation is valid: copy the link above and
              send it yourself.
            </Alert>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
