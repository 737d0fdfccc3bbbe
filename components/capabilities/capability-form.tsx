"use client";

import { useActionState, useRef, useState } from "react";
import { type CapabilityFormValues, saveCapabilityAction } from "@/app/(app)/capabilities/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useUnsavedChangesWarning } from "@/components/ui/use-unsaved-changes";
import { capabilityHints } from "@/lib/capabilities/annotations-schema";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { CodeEditor } from "./code-editor";
import { TestRunPanel } from "./test-run-panel";

const EXAMPLE_CODE = `// args holds the call's arguments; tools.call(name, args) calls any tool of the organization.
const echoed = await tools.call("node_knowledge_retriever", { node_names: [args.node] });
console.log("looked up", args.node);
return { node: args.node, found: echoed };`;

export const NEW_CAPABILITY: CapabilityFormValues = {
  id: null,
  namespace: "",
  action: "",
  description: "",
  parametersSchema: JSON.stringify(
    {
      type: "object",
      properties: { node: { type: "string", description: "A knowledge node's name" } },
      required: ["node"],
    },
    null,
    2,
  ),
  outputSchema: "",
  hints: [],
  code: EXAMPLE_CODE,
};

/** The capability editor: its tool name, schema and code, with a test run of the code as it stands. */
export function CapabilityForm({
  capability,
  readOnly,
}: {
  capability: CapabilityFormValues;
  readOnly: boolean;
}) {
  const [state, action] = useActionState<FormState, FormData>(
    saveCapabilityAction.bind(null, capability.id),
    {},
  );
  const values = { ...capability, ...state.values };
  const [namespace, setNamespace] = useState(values.namespace);
  const [actionName, setActionName] = useState(values.action);
  const form = useRef<HTMLFormElement>(null);
  // Edited and not saved yet; saving clears it (a refused save sets it again with the next edit).
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesWarning(dirty);
  // The test run uses the editor as it stands, saved or not: what the form would submit now.
  const draft = () => {
    const data = new FormData(form.current ?? undefined);
    const field = (name: string) => String(data.get(name) ?? "");
    return {
      id: capability.id,
      namespace: field("namespace"),
      action: field("action"),
      description: field("description"),
      parametersSchema: field("parametersSchema"),
      outputSchema: field("outputSchema"),
      code: field("code"),
    };
  };
  const toolName = capabilityToolName(namespace || "<namespace>", actionName || "<action>");
  const fieldError = (name: string) => state.fields?.[name]?.join(" ");
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <ActionForm
        ref={form}
        action={action}
        state={state}
        onInput={() => setDirty(true)}
        onSubmit={() => setDirty(false)}
        className="grid content-start gap-5"
        noValidate
        aria-label="Capability"
      >
        {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
        <fieldset disabled={readOnly} className="grid gap-5">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="cap-namespace" label="Namespace" error={fieldError("namespace")}>
              <Input
                id="cap-namespace"
                name="namespace"
                value={namespace}
                onChange={(event) => setNamespace(event.target.value)}
                placeholder="code"
              />
            </Field>
            <Field id="cap-action" label="Action" error={fieldError("action")}>
              <Input
                id="cap-action"
                name="action"
                value={actionName}
                onChange={(event) => setActionName(event.target.value)}
                placeholder="analyze"
              />
            </Field>
          </div>
          <p className="text-xs text-muted-foreground" data-testid="capability-tool-name">
            Tool name:{" "}
            <code className={toolName.length > 64 ? "text-destructive" : undefined}>{toolName}</code> (
            {toolName.length} of 64 characters)
          </p>
          <Field
            id="cap-description"
            label="Description"
            hint="What the tool does; models read this."
            error={fieldError("description")}
          >
            <Input id="cap-description" name="description" defaultValue={values.description} />
          </Field>
          <Field
            id="cap-schema"
            label="Parameters (JSON Schema)"
            hint="The tool's inputSchema. Arguments are checked against it before the code runs."
            error={fieldError("parametersSchema")}
          >
            <textarea
              id="cap-schema"
              name="parametersSchema"
              rows={8}
              spellCheck={false}
              defaultValue={values.parametersSchema}
              className="rounded-md border bg-card p-3 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
          </Field>
          <Field
            id="cap-output-schema"
            label="Output schema (JSON Schema, optional)"
            hint="The tool's outputSchema. A result that does not match it is reported as an error, not passed on."
            error={fieldError("outputSchema")}
          >
            <textarea
              id="cap-output-schema"
              name="outputSchema"
              rows={4}
              spellCheck={false}
              defaultValue={values.outputSchema}
              placeholder='{"type": "object", "properties": {…}}'
              className="rounded-md border bg-card p-3 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
          </Field>
          <fieldset className="grid gap-1.5">
            <legend className="mb-1 text-sm font-medium">Annotations</legend>
            <p className="text-xs text-muted-foreground">
              What clients are told of the tool. None checked: it may change and delete things, so agents that
              ask before risky tools ask before it.
            </p>
            {capabilityHints.map((hint) => (
              <div key={hint.name} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  id={`cap-hint-${hint.name}`}
                  name="hints"
                  value={hint.name}
                  defaultChecked={capability.hints.includes(hint.name)}
                  aria-describedby={`cap-hint-${hint.name}-note`}
                  className="mt-1"
                />
                <span>
                  <label htmlFor={`cap-hint-${hint.name}`}>{hint.label}</label>
                  <span id={`cap-hint-${hint.name}-note`} className="block text-xs text-muted-foreground">
                    {hint.note}
                  </span>
                </span>
              </div>
            ))}
            {fieldError("annotations") ? (
              <p className="text-xs text-destructive">{fieldError("annotations")}</p>
            ) : null}
          </fieldset>
          <Field
            id="cap-code"
            label="Code"
            hint="The body of an async function of (args, tools); return a JSON value. It runs in a sandbox with no network or files."
            error={fieldError("code")}
          >
            <CodeEditor id="cap-code" name="code" defaultValue={values.code} disabled={readOnly} />
          </Field>
        </fieldset>
        {readOnly ? null : (
          <div>
            <SubmitButton pendingText="Saving…">
              {capability.id ? "Save capability" : "Create capability"}
            </SubmitButton>
          </div>
        )}
      </ActionForm>
      {readOnly ? null : <TestRunPanel draft={draft} />}
    </div>
  );
}
