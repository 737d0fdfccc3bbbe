"use client";

import { useActionState, useState, useTransition } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { KnowledgeNodeView } from "@/lib/knowledge/nodes";
import { deleteNodeAction, importNodesAction, saveNodeAction } from "./actions";

const area =
  "min-h-24 w-full rounded-md border bg-card px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring";

export function NodeForm({ node }: { node?: KnowledgeNodeView }) {
  const [state, action] = useActionState<FormState, FormData>(
    saveNodeAction.bind(null, node?.id ?? null),
    {},
  );
  const id = node?.id ?? "new";
  const error = (name: string) => state.fields?.[name]?.[0];
  return (
    <ActionForm action={action} state={state} className="mt-3 grid gap-3" noValidate>
      {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
      {state.success ? <Alert tone="success">{state.success}</Alert> : null}
      <Field id={`node-name-${id}`} label="Name" error={error("name")}>
        <Input id={`node-name-${id}`} name="name" defaultValue={state.values?.name ?? node?.name} />
      </Field>
      <Field id={`node-content-${id}`} label="Knowledge" error={error("content")}>
        <textarea
          id={`node-content-${id}`}
          name="content"
          className={area}
          defaultValue={state.values?.content ?? node?.content}
        />
      </Field>
      <Field id={`node-metadata-${id}`} label="Metadata (JSON, optional)" error={error("metadata")}>
        <textarea
          id={`node-metadata-${id}`}
          name="metadata"
          className={`${area} font-mono`}
          defaultValue={
            state.values?.metadata ??
            (node && Object.keys(node.metadata).length ? JSON.stringify(node.metadata, null, 2) : "")
          }
        />
      </Field>
      <div>
        <SubmitButton pendingText="Saving…">{node ? "Save node" : "Add node"}</SubmitButton>
      </div>
    </ActionForm>
  );
}

export function DeleteNodeButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <>
      <ConfirmButton
        title={`Delete "${name}"?`}
        description="Tools stop finding this knowledge at once."
        confirmLabel="Delete"
        disabled={pending}
        onConfirm={() => startTransition(async () => setError((await deleteNodeAction(id)).error))}
      >
        Delete node
      </ConfirmButton>
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </>
  );
}

export function ImportNodesForm() {
  const [state, action] = useActionState<FormState, FormData>(importNodesAction, {});
  return (
    <ActionForm action={action} state={state} className="mt-3 grid gap-3" noValidate>
      {state.error ? <Alert>{state.error}</Alert> : null}
      {state.success ? <Alert tone="success">{state.success}</Alert> : null}
      <Field
        id="import-files"
        label="Files"
        hint='JSON: an array of {"name", "content", "metadata"}. Markdown: one node per file, named by its first heading.'
      >
        <Input
          id="import-files"
          name="files"
          type="file"
          multiple
          accept=".json,.md,.markdown"
          className="h-auto py-1.5"
        />
      </Field>
      <div>
        <SubmitButton pendingText="Importing…">Import</SubmitButton>
      </div>
    </ActionForm>
  );
}
