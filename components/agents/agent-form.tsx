"use client";

import { useActionState } from "react";
import { saveAgentAction } from "@/app/(app)/agents/actions";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/components/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { AgentFormValues } from "@/lib/chat/agent-form-data";
import { toolApprovalChoices } from "@/lib/chat/tool-approval-schema";
import { ScopeFieldset } from "./scope-fieldset";

/**
 * Creates or edits an agent: instructions, model, which integrations, capabilities and built-in tools, and
 * approvals.
 */
export function AgentForm({
  agent,
  integrations,
  capabilities,
  builtins,
  defaultModel,
  readOnly,
}: {
  agent: AgentFormValues;
  integrations: { id: string; name: string; enabled: boolean }[];
  capabilities: { id: string; name: string; description: string }[];
  builtins: { name: string; description: string }[];
  defaultModel: string;
  readOnly: boolean;
}) {
  const [state, action] = useActionState<FormState, FormData>(saveAgentAction.bind(null, agent.id), {});
  const fieldError = (name: string) => state.fields?.[name]?.join(" ");
  return (
    <ActionForm action={action} state={state} className="grid max-w-2xl gap-5" noValidate aria-label="Agent">
      {state.error && !state.fields ? <Alert>{state.error}</Alert> : null}
      <fieldset disabled={readOnly} className="grid gap-5">
        <Field id="agent-name" label="Name" error={fieldError("name")}>
          <Input id="agent-name" name="name" defaultValue={state.values?.name ?? agent.name} maxLength={80} />
        </Field>
        <Field
          id="agent-instructions"
          label="Instructions"
          hint="The system prompt: what the agent is for and how it should answer."
          error={fieldError("instructions")}
        >
          <textarea
            id="agent-instructions"
            name="instructions"
            rows={6}
            defaultValue={state.values?.instructions ?? agent.instructions}
            className="rounded-md border bg-card px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
        </Field>
        <Field
          id="agent-model"
          label="Model"
          hint={`Blank: the default model (${defaultModel}).`}
          error={fieldError("model")}
        >
          <Input
            id="agent-model"
            name="model"
            placeholder={defaultModel}
            defaultValue={state.values?.model ?? agent.model}
          />
        </Field>
        <ScopeFieldset
          legend="Integrations"
          scopeName="integrationScope"
          allLabel="All enabled integrations, including ones added later"
          selectedLabel="Only these"
          name="integrationIds"
          items={integrations.map((integration) => ({
            id: integration.id,
            label: integration.name,
            note: integration.enabled ? undefined : "(disabled)",
          }))}
          checkedIds={agent.mcpIntegrationIds}
          emptyMessage="The organization has no integrations yet."
          error={fieldError("mcpIntegrationIds")}
        />
        <ScopeFieldset
          legend="Capabilities"
          scopeName="capabilityScope"
          allLabel="All capabilities, including ones added later"
          selectedLabel="Only the capabilities chosen here"
          name="capabilityIds"
          items={capabilities.map((capability) => ({
            id: capability.id,
            label: <code>{capability.name}</code>,
            note: capability.description,
          }))}
          checkedIds={agent.capabilityIds}
          emptyMessage="The organization has no capabilities yet."
          error={fieldError("capabilityIds")}
          noteBelow
        />
        <fieldset className="grid gap-1.5">
          <legend className="mb-1 text-sm font-medium">Built-in tools</legend>
          {builtins.map((tool) => (
            <label key={tool.name} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="builtinTools"
                value={tool.name}
                defaultChecked={agent.builtinTools.includes(tool.name)}
                className="mt-1"
              />
              <span>
                <code>{tool.name}</code>
                <span className="block text-xs text-muted-foreground">{tool.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="grid gap-1.5">
          <legend className="mb-1 text-sm font-medium">Approvals</legend>
          <p className="text-xs text-muted-foreground">
            A call that asks waits for the user to allow it, once or for the rest of the conversation, or deny
            it.
          </p>
          {toolApprovalChoices.map((choice) => (
            <div key={choice.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                id={`tool-approval-${choice.value}`}
                name="toolApproval"
                value={choice.value}
                defaultChecked={agent.toolApproval === choice.value}
                aria-describedby={`tool-approval-${choice.value}-note`}
                className="mt-1"
              />
              <span>
                <label htmlFor={`tool-approval-${choice.value}`}>{choice.label}</label>
                <span
                  id={`tool-approval-${choice.value}-note`}
                  className="block text-xs text-muted-foreground"
                >
                  {choice.explanation}
                </span>
              </span>
            </div>
          ))}
          {fieldError("toolApproval") ? (
            <p className="text-xs text-destructive" data-testid="agent-toolApproval-error">
              {fieldError("toolApproval")}
            </p>
          ) : null}
        </fieldset>
      </fieldset>
      {readOnly ? null : (
        <div>
          <SubmitButton pendingText="Saving…">{agent.id ? "Save agent" : "Create agent"}</SubmitButton>
        </div>
      )}
    </ActionForm>
  );
}
