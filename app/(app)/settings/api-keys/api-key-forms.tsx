"use client";

import { Copy } from "lucide-react";
import { useActionState, useState, useTransition } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";
import { type ApiKeyChoices, ApiKeyLimitsFields } from "./api-key-limits-fields";

// Fields the expiry and scope controls show their refusals on.
const SHOWN_FIELDS = [
  "name",
  "expiresIn",
  "expiresInDays",
  "expiresAt",
  "access",
  "integrationScope",
  "capabilityScope",
  "scope.integrationIds",
  "scope.capabilityIds",
];

/**
 * Creates a key and shows it once; `onCreated` lets a page use the new key (in client configurations, say).
 * With `choices`, the key's expiry and scope can be set too; without, it never expires and may use every tool.
 */
export function CreateApiKeyForm({
  defaultName,
  onCreated,
  choices,
}: {
  defaultName?: string;
  onCreated?: (key: string) => void;
  choices?: ApiKeyChoices;
} = {}) {
  const [state, action] = useActionState<FormState & { key?: string }, FormData>(
    async (previous: FormState & { key?: string }, form: FormData) => {
      const next = await createApiKeyAction(previous, form);
      if (next.key) onCreated?.(next.key);
      return next;
    },
    {},
  );
  const [copied, setCopied] = useState(false);
  // A refusal on no field shown here (a forged form, say) is shown under the name.
  const shown = choices ? SHOWN_FIELDS : ["name"];
  const elsewhere = state.error && !state.key && !shown.some((name) => state.fields?.[name]);
  return (
    <ActionForm action={action} state={state} className="mt-4 grid gap-3" noValidate>
      <div className={choices ? "grid gap-3" : "grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"}>
        <Field
          id="key-name"
          label="Name"
          error={state.fields?.name?.join(" ") ?? (elsewhere ? state.error : undefined)}
        >
          <Input
            id="key-name"
            name="name"
            placeholder="Reporting service"
            defaultValue={state.values?.name ?? defaultName}
          />
        </Field>
        {choices ? null : <SubmitButton pendingText="Creating…">Create key</SubmitButton>}
      </div>
      {choices ? <ApiKeyLimitsFields choices={choices} state={state} /> : null}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="metaToolsOnly" className="mt-1" />
        <span>
          Gateway lists only <code>find_tools</code> and <code>call_tool</code>
          <span className="block text-xs text-muted-foreground">
            For MCP clients with many tools: they search and call every tool through these two, which keeps
            their context small.
          </span>
        </span>
      </label>
      {choices ? (
        <div>
          <SubmitButton pendingText="Creating…">Create key</SubmitButton>
        </div>
      ) : null}
      {state.key ? (
        <div className="grid gap-2">
          <Alert tone="success">{state.success}</Alert>
          <div className="flex items-center gap-2">
            <code
              className="flex-1 overflow-x-auto rounded bg-muted px-3 py-2 text-sm"
              data-testid="new-api-key"
            >
              {state.key}
            </code>
            <Button
              variant="secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(state.key ?? "");
                setCopied(true);
              }}
            >
              <Copy className="h-4 w-4" aria-hidden /> {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      ) : null}
    </ActionForm>
  );
}

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <>
      <ConfirmButton
        title={`Revoke "${name}"?`}
        description="Requests with this key fail at once. This cannot be undone."
        confirmLabel="Revoke"
        disabled={pending}
        onConfirm={() => startTransition(async () => setError((await revokeApiKeyAction(id)).error))}
      >
        Revoke
      </ConfirmButton>
      {error ? <p className="basis-full text-xs text-destructive">{error}</p> : null}
    </>
  );
}
